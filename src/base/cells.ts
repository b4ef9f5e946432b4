/**
 * Text measured in terminal cells, as a screen draws it: East Asian wide and fullwidth characters and
 * emoji take two cells, everything else one. What cuts text to a width it draws in uses it: `corral
 * top`'s columns and the web page's card tails, so both cut where the screen would.
 */

/** The cells one character (a code point) takes. */
export function charCells(code: number): 1 | 2 {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) ? 2 : 1;
}

/** The cells a text takes. */
export function textCells(text: string): number {
  let cells = 0;
  for (const char of text) cells += charCells(char.codePointAt(0)!);
  return cells;
}

/** The text cut to at most `columns` cells, ending in an ellipsis (one cell) when it was longer. */
export function cutToCells(text: string, columns: number): string {
  let cells = 0;
  let index = 0;
  /** Where the text ends that leaves a cell for the ellipsis. */
  let room = 0;
  for (const char of text) {
    cells += charCells(char.codePointAt(0)!);
    if (cells > columns) return columns <= 0 ? '' : `${text.slice(0, room)}…`;
    index += char.length;
    if (cells <= columns - 1) room = index;
  }
  return text;
}

/** The text cut to `columns` cells (cutToCells) and filled with spaces to take exactly that many. */
export function fitToCells(text: string, columns: number): string {
  if (columns <= 0) return '';
  const cut = cutToCells(text, columns);
  return cut + ' '.repeat(columns - textCells(cut));
}
