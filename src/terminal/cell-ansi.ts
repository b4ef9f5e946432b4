import type { IBufferCell, IBufferLine } from '@xterm/headless';

function colorParams(cell: IBufferCell, fg: boolean): string[] {
  if (fg ? cell.isFgDefault() : cell.isBgDefault()) return [];
  const color = fg ? cell.getFgColor() : cell.getBgColor();
  if (fg ? cell.isFgRGB() : cell.isBgRGB()) {
    return [fg ? '38' : '48', '2', String((color >> 16) & 0xff), String((color >> 8) & 0xff), String(color & 0xff)];
  }
  if (color < 8) return [String((fg ? 30 : 40) + color)];
  if (color < 16) return [String((fg ? 90 : 100) + color - 8)];
  return [fg ? '38' : '48', '5', String(color)];
}

/** The SGR parameters that reproduce a cell's attributes from a reset state. */
function sgrParams(cell: IBufferCell): string[] {
  const params: string[] = [];
  if (cell.isBold()) params.push('1');
  if (cell.isDim()) params.push('2');
  if (cell.isItalic()) params.push('3');
  if (cell.isUnderline()) params.push('4');
  if (cell.isBlink()) params.push('5');
  if (cell.isInverse()) params.push('7');
  if (cell.isInvisible()) params.push('8');
  if (cell.isStrikethrough()) params.push('9');
  if (cell.isOverline()) params.push('53');
  params.push(...colorParams(cell, true), ...colorParams(cell, false));
  return params;
}

/**
 * One buffer line as text with SGR sequences for colours and attributes, right-trimmed of
 * default-attribute blanks, ending in a reset when any attribute was set.
 */
export function lineToAnsi(line: IBufferLine, cols: number, scratch: IBufferCell): string {
  let lastSignificant = -1;
  for (let x = 0; x < cols; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell) break;
    if (cell.getChars() !== '' && cell.getChars() !== ' ') lastSignificant = x;
    else if (!cell.isAttributeDefault()) lastSignificant = x;
  }
  let out = '';
  let current = '';
  for (let x = 0; x <= lastSignificant; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell || cell.getWidth() === 0) continue; // the right half of a wide character
    const sgr = sgrParams(cell).join(';');
    if (sgr !== current) {
      out += sgr === '' ? '\x1b[0m' : `\x1b[0;${sgr}m`;
      current = sgr;
    }
    out += cell.getChars() || ' ';
  }
  return current === '' ? out : out + '\x1b[0m';
}
