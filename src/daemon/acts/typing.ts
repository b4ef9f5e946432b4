import { CorralError } from '../../protocol/errors.ts';
import { TerminalError } from '../../terminal/errors.ts';
import { encodeKeys } from '../../terminal/keys.ts';
import type { PaneRecord } from '../pane-record.ts';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const ENTER = '\r';

/**
 * Pause between the pasted text and the Enter that submits it, so that the Enter arrives in a read of
 * its own: a TUI may take a paste and a key read together as one paste and drop the Enter. Measured
 * with the fake agent (10 trials each, /tmp script in the report): 0, 10 and 60 ms all submit 10/10;
 * the fake parses the Enter after the paste mark. Real agents are not measured yet, so 60 ms is kept
 * as a margin that costs a prompt little.
 */
export const SUBMIT_PAUSE_MS = 60;

/**
 * The bytes of `text` as the program expects typed input: between bracketed-paste marks when the
 * program enabled mode 2004, with any end mark inside removed so the text cannot end the paste early.
 * Without the mode the text goes as it is.
 */
export function pasteBytes(text: string, bracketedPaste: boolean): string {
  if (!bracketedPaste) return text;
  return PASTE_START + text.split(PASTE_END).join('') + PASTE_END;
}

/** Types text into the pane, then Enter after the submit pause when `submit`. */
export async function typePrompt(pane: PaneRecord, text: string, submit: boolean, pauseMs = SUBMIT_PAUSE_MS): Promise<void> {
  if (text !== '') pane.terminal.write(pasteBytes(text, pane.terminal.bracketedPaste));
  if (!submit) return;
  if (text !== '' && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  if (pane.state === 'running') pane.terminal.write(ENTER);
}

/** Named keys to bytes; an unknown name travels as `invalid_key`. */
export function keyBytes(keys: string[]): string {
  try {
    return encodeKeys(keys);
  } catch (error) {
    if (error instanceof TerminalError && error.code === 'invalid_key') throw new CorralError('invalid_key', error.message);
    throw error;
  }
}

const CANCEL_KEYS = new Set(['escape', 'esc', 'c-c']);

/** Whether input sent to a pane cancels what the agent does: Escape or C-c, as key names or as the bare byte. */
export function isCancelInput(text: string | undefined, keys: readonly string[] | undefined): boolean {
  if (keys?.some((key) => CANCEL_KEYS.has(key.toLowerCase()))) return true;
  return text === '\x1b' || (text?.includes('\x03') ?? false);
}
