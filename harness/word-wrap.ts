import { textCells } from '../src/base/cells.ts';

/**
 * Words laid into rows of at most `width` cells, as agents wrap a dialog's text: the first row after
 * `first`, the others after `rest`. Draws the dialogs the recordings lack, for the prompt tests and
 * bench/prompt-text.ts.
 */
export function wrapWords(text: string, width: number, first: string, rest = first): string[] {
  const rows: string[] = [];
  let prefix = first;
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && textCells(`${prefix}${line} ${word}`) > width) {
      rows.push(prefix + line);
      prefix = rest;
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  rows.push(prefix + line);
  return rows;
}
