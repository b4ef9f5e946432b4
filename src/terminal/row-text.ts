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

/** Where `rowUtf8` writes, grown as needed; valid up to the length it returns. */
export let rowBytes = new Uint8Array(1024);
const encoder = new TextEncoder();

function roomBytes(n: number, more: number): void {
  if (n + more <= rowBytes.length) return;
  const grown = new Uint8Array(Math.max(rowBytes.length * 2, n + more));
  grown.set(rowBytes.subarray(0, n));
  rowBytes = grown;
}

/** A high surrogate waiting for its pair while a row is encoded (0: none). */
let high = 0;

/** Writes UTF-16 unit `unit` at `n`, as a UTF-16 decoder then a UTF-8 encoder would; the new end. */
function unitBytes(unit: number, n: number): number {
  const out = rowBytes;
  if (high !== 0) {
    const pending = high;
    high = 0;
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      const point = 0x10000 + ((pending - 0xd800) << 10) + (unit - 0xdc00);
      out[n++] = 0xf0 | (point >> 18);
      out[n++] = 0x80 | ((point >> 12) & 0x3f);
      out[n++] = 0x80 | ((point >> 6) & 0x3f);
      out[n++] = 0x80 | (point & 0x3f);
      return n;
    }
    n = replacement(n);
  }
  if (unit < 0x80) out[n++] = unit;
  else if (unit < 0x800) {
    out[n++] = 0xc0 | (unit >> 6);
    out[n++] = 0x80 | (unit & 0x3f);
  } else if (unit >= 0xd800 && unit <= 0xdbff) high = unit;
  else if (unit >= 0xdc00 && unit <= 0xdfff) n = replacement(n);
  else {
    out[n++] = 0xe0 | (unit >> 12);
    out[n++] = 0x80 | ((unit >> 6) & 0x3f);
    out[n++] = 0x80 | (unit & 0x3f);
  }
  return n;
}

/** U+FFFD, which a UTF-16 decoder reads a lone surrogate as. */
function replacement(n: number): number {
  rowBytes[n++] = 0xef;
  rowBytes[n++] = 0xbf;
  rowBytes[n++] = 0xbd;
  return n;
}

/**
 * The text of `rowText(line)` as UTF-8, written to `rowBytes` (its length returned), with no string
 * made: the text history keeps every row that leaves the emulator this way, and decodes the few that
 * are read. Reads the same cells as rowText, and pairs UTF-16 units the way its decoder does (a lone
 * surrogate is U+FFFD), so a row decoded from these bytes is the string rowText returns.
 */
export function rowUtf8(line: IBufferLine): number {
  const row = (line as unknown as { _line?: Partial<RowInternals> })._line;
  const data = row?._data;
  if (!(data instanceof Uint32Array) || typeof row?.length !== 'number' || row._combined === undefined) {
    const text = line.translateToString(true);
    roomBytes(0, text.length * 3);
    return encoder.encodeInto(text, rowBytes).written;
  }
  let end = Math.min(row.length, data.length / WORDS_PER_CELL);
  while (end > 0 && (data[(end - 1) * WORDS_PER_CELL]! & HAS_CONTENT) === 0) end--;
  // At most 7 bytes a cell (a pending surrogate's U+FFFD, then 4), and 3 for one left at the end.
  roomBytes(0, end * 7 + 3);
  let n = 0;
  high = 0;
  for (let x = 0; x < end; ) {
    const content = data[x * WORDS_PER_CELL]!;
    const point = content & CODEPOINT_MASK;
    if (point < 0x80 && high === 0 && (content & IS_COMBINED) === 0) {
      rowBytes[n++] = point === 0 ? SPACE : point;
    } else if (content & IS_COMBINED) {
      const chars = row._combined[x] ?? '';
      roomBytes(n, chars.length * 3 + end * 7 + 3);
      for (let i = 0; i < chars.length; i++) n = unitBytes(chars.charCodeAt(i), n);
    } else if (point < 0x10000) {
      n = unitBytes(point === 0 ? SPACE : point, n);
    } else {
      n = unitBytes(0xd800 + ((point - 0x10000) >> 10), n);
      n = unitBytes(0xdc00 + ((point - 0x10000) & 0x3ff), n);
    }
    x += content >>> WIDTH_SHIFT || 1;
  }
  if (high !== 0) {
    high = 0;
    n = replacement(n);
  }
  return n;
}
