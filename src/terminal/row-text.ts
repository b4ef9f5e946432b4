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

/**
 * UTF-16 units of the row being read, grown as needed; decoded into one flat string. `unitsBuffer`
 * is the same memory as a Buffer, which decodes a range with no view object made per row.
 */
let units = new Uint16Array(1024);
let unitsBuffer = Buffer.from(units.buffer);
/** The row again, one byte a unit, when every unit is under 0x100: decoded as latin1, a one-byte string (half the memory). */
let narrow = Buffer.allocUnsafe(1024);
// ignoreBOM keeps a leading U+FEFF as text (by default the decoder would drop it).
const decoder = new TextDecoder('utf-16le', { ignoreBOM: true });

function room(n: number, more: number): void {
  if (n + more <= units.length) return;
  const grown = new Uint16Array(Math.max(units.length * 2, n + more));
  grown.set(units.subarray(0, n));
  units = grown;
  unitsBuffer = Buffer.from(units.buffer);
  narrow = Buffer.allocUnsafe(units.length);
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * The same text as `line.translateToString(true)`: cells up to the last one written, a blank cell
 * as a space, a wide character once. Detection reads every row of every busy pane at each turn of
 * its output: the emulator's own method adds one character at a time, which leaves a tree of one
 * string per character (about 2.8 KiB of garbage per 100 columns); this builds one flat string
 * from the row's cells (a lone surrogate, which no valid output holds, reads as U+FFFD). Where
 * `earlier` or `earlierBelow` (texts rows had at the caller's last read) is the same text, that
 * string is returned and no new one is made: a program mostly redraws the same rows. Falls back to
 * the emulator's method where its row is not the shape known.
 */
export function rowText(line: IBufferLine, earlier?: string, earlierBelow?: string): string {
  const row = (line as unknown as { _line?: Partial<RowInternals> })._line;
  const data = row?._data;
  if (!(data instanceof Uint32Array) || typeof row?.length !== 'number' || row._combined === undefined) return line.translateToString(true);
  let end = Math.min(row.length, data.length / WORDS_PER_CELL);
  while (end > 0 && (data[(end - 1) * WORDS_PER_CELL]! & HAS_CONTENT) === 0) end--;
  let n = 0;
  // Set when a unit might be an unpaired surrogate: only the decoder turns those into U+FFFD.
  let unpaired = false;
  let wide = 0; // every unit or'ed: under 0x100, the row is latin1
  for (let x = 0; x < end; ) {
    const content = data[x * WORDS_PER_CELL]!;
    if (content & IS_COMBINED) {
      const chars = row._combined[x] ?? '';
      room(n, chars.length);
      for (let i = 0; i < chars.length; i++) {
        const unit = chars.charCodeAt(i);
        if (isSurrogate(unit)) unpaired = true;
        wide |= unit;
        units[n++] = unit;
      }
    } else {
      room(n, 2);
      const point = content & CODEPOINT_MASK;
      if (point === 0) units[n++] = SPACE;
      else if (point < 0x10000) {
        if (isSurrogate(point)) unpaired = true;
        wide |= point;
        units[n++] = point;
      } else {
        wide = 0x10000;
        units[n++] = 0xd800 + ((point - 0x10000) >> 10);
        units[n++] = 0xdc00 + ((point - 0x10000) & 0x3ff);
      }
    }
    x += content >>> WIDTH_SHIFT || 1;
  }
  if (unpaired) return decoder.decode(units.subarray(0, n));
  if (earlier !== undefined && sameUnits(earlier, n)) return earlier;
  if (earlierBelow !== undefined && sameUnits(earlierBelow, n)) return earlierBelow;
  if (wide >= 0x100) return unitsBuffer.toString('utf16le', 0, n * 2);
  for (let i = 0; i < n; i++) narrow[i] = units[i]!;
  return narrow.toString('latin1', 0, n);
}

/** Whether `text` is the first `n` units read. */
function sameUnits(text: string, n: number): boolean {
  if (text.length !== n) return false;
  for (let i = 0; i < n; i++) if (text.charCodeAt(i) !== units[i]) return false;
  return true;
}

/** Bits of a cell's content word that are zero for a one-byte character (ASCII or blank), not combined. */
const NOT_ASCII = (CODEPOINT_MASK | IS_COMBINED) & ~0x7f;
/** The most bytes one cell of a row encodes to: a lone surrogate's U+FFFD before a 4-byte character. */
export const MAX_CELL_BYTES = 7;

/** A high surrogate waiting for its pair while a row is encoded (0: none); `unitBytes`'s state. */
let high = 0;

/** Writes UTF-16 unit `unit` at `n` of `out`, as a UTF-16 decoder then a UTF-8 encoder would; the new end. */
function unitBytes(out: Uint8Array, n: number, unit: number): number {
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
    n = replacement(out, n);
  }
  if (unit < 0x80) out[n++] = unit;
  else if (unit < 0x800) {
    out[n++] = 0xc0 | (unit >> 6);
    out[n++] = 0x80 | (unit & 0x3f);
  } else if (unit >= 0xd800 && unit <= 0xdbff) high = unit;
  else if (unit >= 0xdc00 && unit <= 0xdfff) n = replacement(out, n);
  else {
    out[n++] = 0xe0 | (unit >> 12);
    out[n++] = 0x80 | ((unit >> 6) & 0x3f);
    out[n++] = 0x80 | (unit & 0x3f);
  }
  return n;
}

/** U+FFFD, which a UTF-16 decoder reads a lone surrogate as. */
function replacement(out: Uint8Array, n: number): number {
  out[n++] = 0xef;
  out[n++] = 0xbf;
  out[n++] = 0xbd;
  return n;
}

/** The cell at `x` (not a one-byte character) written at `n`: its UTF-16 units through `unitBytes`. */
function cellBytes(out: Uint8Array, n: number, content: number, combined: Record<number, string>, x: number): number {
  if (content & IS_COMBINED) {
    const chars = combined[x] ?? '';
    for (let i = 0; i < chars.length; i++) n = unitBytes(out, n, chars.charCodeAt(i));
    return n;
  }
  const point = content & CODEPOINT_MASK;
  if (point < 0x10000) return unitBytes(out, n, point === 0 ? SPACE : point);
  n = unitBytes(out, n, 0xd800 + ((point - 0x10000) >> 10));
  return unitBytes(out, n, 0xdc00 + ((point - 0x10000) & 0x3ff));
}

/** Room a row needs in `rowUtf8`, at most, before its combined characters: `MAX_CELL_BYTES` a column. */
export function rowUtf8Room(line: IBufferLine): number {
  return line.length * MAX_CELL_BYTES + 3;
}

/**
 * The text of `rowText(line)` as UTF-8, written from `at` in `out` up to `stop`, with no string made:
 * the text history keeps every row that leaves the emulator this way and decodes the few that are read.
 * Reads the same cells as rowText and pairs UTF-16 units the way its decoder does (a lone surrogate is
 * U+FFFD), so these bytes decode to the string rowText returns. Returns where the row ends, or -1 when
 * it would pass `stop` (only a row with combined characters can need more than `rowUtf8Room`).
 */
export function rowUtf8(line: IBufferLine, out: Uint8Array, at: number, stop: number): number {
  const row = (line as unknown as { _line?: Partial<RowInternals> })._line;
  const data = row?._data;
  if (!(data instanceof Uint32Array) || typeof row?.length !== 'number' || row._combined === undefined) {
    // rowText's string holds no lone surrogate (its decoder replaced them), so it encodes exactly.
    const text = line.translateToString(true);
    if (at + text.length * 3 > stop) return -1;
    return at + encoder.encodeInto(text, out.subarray(at, stop)).written;
  }
  // Integers throughout (a cell's word has nothing above its width bits, so `| 0` keeps it): the loop
  // runs once per cell of every line of output.
  let end: number = row.length;
  if (data.length < end * WORDS_PER_CELL) end = (data.length / WORDS_PER_CELL) | 0;
  while (end > 0 && (data[(end - 1) * WORDS_PER_CELL]! & HAS_CONTENT) === 0) end--;
  if (at + end * MAX_CELL_BYTES + 3 > stop) return -1;
  let n = at;
  high = 0;
  let pending = false; // high !== 0, kept local for the loop's common case
  for (let x = 0; x < end; ) {
    const content = data[x * WORDS_PER_CELL]! | 0;
    if ((content & NOT_ASCII) === 0 && !pending) {
      const point = content & 0x7f;
      out[n++] = point === 0 ? SPACE : point;
    } else {
      if (content & IS_COMBINED && n + (row._combined[x]?.length ?? 0) * 3 + (end - x) * MAX_CELL_BYTES + 3 > stop) return -1;
      n = cellBytes(out, n, content, row._combined, x);
      pending = high !== 0;
    }
    x += (content >> WIDTH_SHIFT) & 3 || 1;
  }
  if (high !== 0) {
    high = 0;
    n = replacement(out, n);
  }
  return n;
}

const encoder = new TextEncoder();
