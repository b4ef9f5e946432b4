import { textCells } from '../base/cells.ts';
import { isBlank, isHorizontalRule } from './screen-structure.ts';

/** One screen row of a dialog, as a prompt reader cuts it. */
export interface DialogRow {
  /** Box sides stripped, indentation kept, trailing spaces trimmed. */
  indented: string;
  /** Cells from the row's left edge to the end of its text, right box sides left out. */
  end: number;
  /** The emulator wrapped the row above onto this one (a soft wrap). */
  soft: boolean;
  /** The row ended in a space before trimming (a soft wrap keeps the space it broke at). */
  spaceAtEnd: boolean;
}

/** A line as the agent wrote it, before it wrapped: one or more rows joined. */
export interface DialogLine {
  /** Indentation of its first row kept, the rows after it joined by one space. */
  indented: string;
  /** Its first row's index among the dialog's rows. */
  row: number;
  /** Its last row's index among the dialog's rows. */
  lastRow: number;
}

/** Cells at a row's right end an agent may keep free of text (box sides, padding: Claude Code's boxed note wraps 7 short). */
const RIGHT_MARGIN = 6;

/**
 * Joins a dialog's rows into the lines the agent wrote, so that a command, a label or a tip wrapped
 * at the pane's width reads as one line at every width. A row continues the line above when the
 * emulator wrapped it, or when the agent did: the row's first word would not have fitted on the row
 * above (`width` is the pane's) and starts no new sentence, and either the row above belongs to a
 * choice and this row is indented at least as deep (a wrapped label: Copilot indents it as deep as
 * the number, Claude Code and Codex deeper), or the two rows have the same indentation and the row
 * above fills at least half the width or is itself a wrapped row (a wrapped paragraph; a short title
 * above a long path is two lines). A blank row, a rule, and a row `ownLine` claims (a choice, a
 * footer) start lines of their own.
 */
export function joinDialogRows(rows: readonly DialogRow[], width: number, ownLine: (row: number) => 'choice' | 'footer' | null): DialogLine[] {
  const lines: DialogLine[] = [];
  let choice = false;
  let indent = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const above = i > 0 ? rows[i - 1]! : null;
    const current = lines.length > 0 && lines[lines.length - 1]!.lastRow === i - 1 ? lines[lines.length - 1]! : null;
    const text = row.indented.trim();
    const own = isSeparator(text) ? null : ownLine(i);
    // A soft wrap joins, unless the row is a choice or a footer of its own: a row padded with spaces
    // to a wider pane than this one wraps onto the next row the agent drew.
    if (current !== null && above !== null && row.soft && text !== '' && own === null) {
      current.indented += (above.spaceAtEnd ? ' ' : '') + row.indented;
      current.lastRow = i;
      continue;
    }
    if (current !== null && above !== null && own === null && !isSeparator(text) && !isSeparator(above.indented.trim()) && wrapsOnto(above, row, width)) {
      const rowIndent = indentOf(row.indented);
      // A short row inside a wrapped paragraph is one a long word did not fit after; a short first row is a title.
      const continues = choice ? rowIndent >= indent : rowIndent === indentOf(above.indented) && (above.end * 2 >= width || current.lastRow > current.row);
      if (continues) {
        // A word broken at its hyphen or a path at its slash (`capture-` / `proof.txt`) joins without a space.
        current.indented += (/[^\s][-/]$/.test(above.indented) ? '' : ' ') + text;
        current.lastRow = i;
        continue;
      }
    }
    lines.push({ indented: row.indented, row: i, lastRow: i });
    choice = own === 'choice';
    indent = indentOf(row.indented);
  }
  return lines;
}

/**
 * The row's first word would not have fitted at the end of the row above, and does not start a
 * sentence the row above did not end (`x.txt` above `Create marker file` is two lines that happen to
 * fill the row; `files.` above `Your trust decision` is one paragraph).
 */
function wrapsOnto(above: DialogRow, row: DialogRow, width: number): boolean {
  const word = row.indented.trim().split(/\s/, 1)[0]!;
  if (/^\p{Lu}/u.test(word) && !/[.!?:;,·•|—–]$/.test(above.indented)) return false;
  return above.end + 1 + textCells(word) > width - RIGHT_MARGIN;
}

function isSeparator(text: string): boolean {
  return isBlank(text) || isHorizontalRule(text) || /^[╭╰┌└][─━]*[╮╯┐┘]?$/.test(text) || /^[─━╌┄▄▀]+$/.test(text);
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
