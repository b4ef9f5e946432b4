import type { PaneRecord } from '../panes/pane-record.ts';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const ENTER = '\r';

/**
 * Before the Enter that submits a prompt, the pane's output must have been quiet this long since the
 * text was typed: a TUI may take a paste and a key read together as one paste and drop the Enter, and
 * Gemini CLI 0.61 turns an Enter into a newline while a paste is still marked (a 40 ms timer it clears
 * on its next render). A fixed 60 ms pause lost the Enter in 2 of 3 live runs on a busy machine.
 */
export const SUBMIT_QUIET_MS = 200;
/** The Enter goes after this long at the most, for a program that keeps drawing (a spinner). */
const SUBMIT_WAIT_CAP_MS = 1500;

/**
 * The bytes of `text` as the program expects typed input: between bracketed-paste marks when the
 * program enabled mode 2004, with any end mark inside removed so the text cannot end the paste early.
 * Without the mode the text goes as it is.
 */
export function pasteBytes(text: string, bracketedPaste: boolean): string {
  if (!bracketedPaste) return text;
  return PASTE_START + text.split(PASTE_END).join('') + PASTE_END;
}

/** Types text into the pane, then, when `submit`, Enter once the program has taken the text. */
export async function typePrompt(pane: PaneRecord, text: string, submit: boolean, quietMs = SUBMIT_QUIET_MS): Promise<void> {
  if (text !== '') pane.write(pasteBytes(text, pane.terminal.bracketedPaste));
  if (!submit) return;
  if (text !== '' && quietMs > 0) await outputQuiet(pane, quietMs, SUBMIT_WAIT_CAP_MS);
  if (pane.lifecycle === 'running') pane.write(ENTER);
}

/** Resolves once the pane has drawn nothing for `quietMs`, or after `capMs` at the most. */
function outputQuiet(pane: PaneRecord, quietMs: number, capMs: number): Promise<void> {
  return new Promise((resolve) => {
    let quiet: NodeJS.Timeout;
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(cap);
      listener.dispose();
      resolve();
    };
    const arm = () => {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    };
    const listener = pane.terminal.onOutput(arm);
    const cap = setTimeout(done, capMs);
    arm();
  });
}

const CANCEL_KEYS = new Set(['escape', 'esc', 'c-c']);

/** Whether input sent to a pane cancels what the agent does: Escape or C-c, as key names or as the bare byte. */
export function isCancelInput(text: string | undefined, keys: readonly string[] | undefined): boolean {
  if (keys?.some((key) => CANCEL_KEYS.has(key.toLowerCase()))) return true;
  return text === '\x1b' || (text?.includes('\x03') ?? false);
}
