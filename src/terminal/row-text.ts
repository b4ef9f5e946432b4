import type { IBufferLine } from '@xterm/headless';

/** The emulator's own row (@xterm/headless 6.0.0, pinned): three 32-bit words per cell, the first its content. */
interface RowInternals {
  _data: Uint32Array;
  _combined: Record<number, string>;
  length: number;
}

const CODEPOINT_MASK = 0x1fffff;
const IS_COMBINED = 0x200000;
const HAS_CONTENT = CODEPOINT_MASK | IS_COMBINED;
const WIDTH_SHIFT = 22;
const WORDS_PER_CELL = 3;
const SPACE = 0x20;

/** UTF-16 units of the row being read, grown as needed; decoded into one flat string. */
let units = new Uint16Array(1024);
// ignoreBOM keeps a leading U+FEFF as text (by default the decoder would drop it).
const decoder = new TextDecoder('utf-16le', { ignoreBOM: true });

function room(n: number, more: number): void {
  if (n + more <= units.length) return;
  const grown = new Uint16Array(Math.max(units.length * 2, n + more));
  grown.set(units.subarray(0, n));
  units = grown;
}

/**
 * The same text as `line.translateToString(true)`: cells up to the last one written, a blank cell
 * as a space, a wide character once. Detection reads every row of every busy pane at each turn of
 * its output: the emulator's own method adds one character at a time, which leaves a tree of one
 * string per character (about 2.8 KiB of garbage per 100 columns); this builds one flat string
 * from the row's cells (a lone surrogate, which no valid output holds, reads as U+FFFD). Falls back
 * to the emulator's method where its row is not the shape known.
 */
export function rowText(line: IBufferLine): string {
  const row = (line as unknown as { _line?: Partial<RowInternals> })._line;
  const data = row?._data;
  if (!(data instanceof Uint32Array) || typeof row?.length !== 'number' || row._combined === undefined) return line.translateToString(true);
  let end = Math.min(row.length, data.length / WORDS_PER_CELL);
  while (end > 0 && (data[(end - 1) * WORDS_PER_CELL]! & HAS_CONTENT) === 0) end--;
  let n = 0;
  for (let x = 0; x < end; ) {
    const content = data[x * WORDS_PER_CELL]!;
    if (content & IS_COMBINED) {
      const chars = row._combined[x] ?? '';
      room(n, chars.length);
      for (let i = 0; i < chars.length; i++) units[n++] = chars.charCodeAt(i);
    } else {
      room(n, 2);
      const point = content & CODEPOINT_MASK;
      if (point === 0) units[n++] = SPACE;
      else if (point < 0x10000) units[n++] = point;
      else {
        units[n++] = 0xd800 + ((point - 0x10000) >> 10);
        units[n++] = 0xdc00 + ((point - 0x10000) & 0x3ff);
      }
    }
    x += content >>> WIDTH_SHIFT || 1;
  }
  return decoder.decode(units.subarray(0, n));
}
