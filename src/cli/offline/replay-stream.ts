import { Screen } from '../../terminal/screen.ts';
import type { DetectInput } from '../../detect/types.ts';
import { captureFrom, type Capture } from './capture.ts';

export interface ReplayOptions {
  cols: number;
  rows: number;
}

/** A moment to look at: after `bytes` bytes of output, at `at` ms (null: the capture's own time there). */
export interface ReplayPoint {
  bytes: number;
  at?: number | null;
}

export interface ReplayVisitor {
  /** Before each piece of output is fed, with its time: the screen is still the one before it. */
  beforeOutput?: (at: number | null, read: (at: number | null) => DetectInput) => void;
  /** After every piece of output, at its time (null for raw bytes): for evaluators that remember. */
  output?: (input: DetectInput, fed: number) => void;
  /** At each point, in ascending order of bytes. */
  point: (index: number, input: DetectInput) => void;
}

/**
 * Feeds a capture through the same headless screen panes use, in order and at its recorded times,
 * and shows the detection input to the visitor. Terminal replies go nowhere. Offsets count output
 * bytes; a raw byte array is a capture without timing.
 */
export async function replayCapture(capture: Capture, points: readonly ReplayPoint[], options: ReplayOptions, visitor: ReplayVisitor): Promise<void> {
  const order = points.map((point, index) => ({ ...point, index })).sort((a, b) => a.bytes - b.bytes);
  const screen = new Screen({ cols: options.cols, rows: options.rows });
  const read = (at: number | null): DetectInput => {
    const snapshot = screen.snapshot();
    return { lines: snapshot.lines, cols: snapshot.cols, wrapped: snapshot.wrapped, title: snapshot.title, progress: snapshot.progress, at };
  };
  let lastAt: number | null = null;
  const visitDue = (fed: number) => {
    while (order.length > 0 && order[0]!.bytes <= fed) {
      const point = order.shift()!;
      visitor.point(point.index, read(point.at ?? lastAt));
    }
  };
  try {
    let fed = 0;
    for (const chunk of capture.chunks) {
      if (chunk.kind === 'resize') {
        await screen.flush();
        screen.resize(chunk.cols, chunk.rows);
        continue;
      }
      let from = 0;
      while (from < chunk.data.length) {
        visitDue(fed);
        const cut = order.length > 0 ? Math.min(chunk.data.length, from + (order[0]!.bytes - fed)) : chunk.data.length;
        visitor.beforeOutput?.(chunk.at, read);
        await screen.writeAsync(chunk.data.subarray(from, cut));
        fed += cut - from;
        from = cut;
        lastAt = chunk.at;
        visitor.output?.(read(chunk.at), fed);
      }
    }
    visitDue(Number.POSITIVE_INFINITY);
  } finally {
    screen.dispose();
  }
}

/** The detection input after each offset (ascending), without times; for callers that judge screens alone. */
export async function replayAtOffsets(data: Uint8Array | Capture, offsets: readonly number[], options: ReplayOptions, visit: (offset: number, input: DetectInput) => void): Promise<void> {
  const capture = data instanceof Uint8Array ? captureFrom(Buffer.from(data.buffer, data.byteOffset, data.byteLength)) : data;
  const sorted = [...offsets].sort((a, b) => a - b);
  await replayCapture(capture, sorted.map((bytes) => ({ bytes })), options, {
    point: (index, input) => visit(sorted[index]!, { ...input, at: null }),
  });
}

/** Every `step` bytes and at each chunk boundary a write would produce; for `--timeline`. */
export function timelineOffsets(length: number, step: number): number[] {
  const offsets: number[] = [];
  for (let at = step; at < length; at += step) offsets.push(at);
  offsets.push(length);
  return offsets;
}
