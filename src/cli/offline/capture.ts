import { readFileSync } from 'node:fs';
import { looksLikeAsciicast, parseAsciicast, type CastTiming } from '../../terminal/asciicast.ts';
import { TerminalError } from '../../terminal/errors.ts';
import { UsageError } from '../print-error.ts';

/** One piece of a capture: output bytes at a time (ms since start; null when the capture has no timing), or a resize. */
export type CaptureChunk = { kind: 'output'; at: number | null; data: Buffer } | { kind: 'resize'; at: number | null; cols: number; rows: number };

/** A capture ready to replay: an asciicast (with timing) or raw bytes (without). */
export interface Capture {
  cols: number | null; // from the asciicast header; null for raw bytes
  rows: number | null;
  timing: CastTiming | 'none';
  chunks: CaptureChunk[];
  /** Output bytes in all: offsets in labels count these. */
  length: number;
}

/** Reads an asciicast v2 file (by its header) or raw terminal output. */
export function readCapture(path: string): Capture {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read capture ${path}: ${(error as Error).message}`);
  }
  return captureFrom(data, path);
}

export function captureFrom(data: Buffer, name = 'capture'): Capture {
  if (!looksLikeAsciicast(data)) return { cols: null, rows: null, timing: 'none', chunks: [{ kind: 'output', at: null, data }], length: data.length };
  let cast;
  try {
    cast = parseAsciicast(data.toString('utf8'));
  } catch (error) {
    if (error instanceof TerminalError) throw new UsageError(`${name}: ${error.message} (${error.code})`);
    throw error;
  }
  const chunks: CaptureChunk[] = [];
  let length = 0;
  for (const [seconds, code, text] of cast.events) {
    const at = Math.round(seconds * 1_000_000) / 1000;
    if (code === 'o') {
      const bytes = Buffer.from(text, 'utf8');
      length += bytes.length;
      chunks.push({ kind: 'output', at, data: bytes });
    } else if (code === 'r') {
      const [cols, rows] = text.split('x').map(Number) as [number, number];
      chunks.push({ kind: 'resize', at, cols, rows });
    }
  }
  return { cols: cast.header.width, rows: cast.header.height, timing: cast.header.corral?.timing ?? 'recorded', chunks, length };
}

/** The output of the first `bytes` bytes only (for `--bytes`); chunks are cut, never split mid-way otherwise. */
export function truncateCapture(capture: Capture, bytes: number): Capture {
  const chunks: CaptureChunk[] = [];
  let fed = 0;
  for (const chunk of capture.chunks) {
    if (fed >= bytes) break;
    if (chunk.kind === 'output') {
      const take = Math.min(chunk.data.length, bytes - fed);
      chunks.push(take === chunk.data.length ? chunk : { ...chunk, data: chunk.data.subarray(0, take) });
      fed += take;
    } else chunks.push(chunk);
  }
  return { ...capture, chunks, length: fed };
}
