import type { TerminalPane } from '../../terminal/types.ts';

const ESC = '\x1b';

/**
 * The bytes that paint a pane's current screen on a client terminal from any prior state: reset
 * attributes, clear, each row in place with its colours, the cursor where the program left it, and
 * the input modes the program set (DECCKM, bracketed paste). Cursor visibility and scroll regions are
 * not tracked by the emulator's public API, so the cursor is shown and the full screen scrolls.
 */
export function redrawSequence(terminal: TerminalPane): string {
  const rows = terminal.read({ source: 'screen', ansi: true }).split('\n');
  const { cursor } = terminal.snapshot();
  let out = `${ESC}[?2026h${ESC}[0m${ESC}[r${ESC}[H${ESC}[2J`;
  rows.forEach((row, y) => {
    if (row !== '') out += `${ESC}[${y + 1};1H${row}`;
  });
  out += `${ESC}[${cursor.y + 1};${cursor.x + 1}H`;
  out += `${ESC}[?1${terminal.modes.applicationCursorKeys ? 'h' : 'l'}`;
  out += `${ESC}[?2004${terminal.bracketedPaste ? 'h' : 'l'}`;
  out += `${ESC}[?25h${ESC}[?2026l`;
  return out;
}

/**
 * Screen switches (DECSET 47, 1047, 1049) are kept from the client: it stays on its own alternate
 * screen while attached, so that detaching gives back the user's shell screen untouched. A switch
 * is followed by a redraw instead. A switch split across two chunks is missed; the redraw still
 * follows, since the emulator saw it.
 */
const SCREEN_SWITCH = /\x1b\[\?(?:47|1047|1049)[hl]/g;

export function withoutScreenSwitches(data: string): string {
  return data.includes('\x1b[?') ? data.replace(SCREEN_SWITCH, '') : data;
}
