import { Screen } from '../../terminal/screen.ts';
import type { DetectInput } from '../../detect/types.ts';
import { captureFrom, type Capture } from './capture.ts';

export interface ReplayOptions {
  cols: number;
  rows: number;
}

/**
 * Feeds a capture through the same headless screen panes use, and calls `visit` with the detection
 * input after each offset (ascending). Terminal replies go nowhere. Offsets count output bytes;
 * a raw byte array is a capture without timing.
 */
export async function replayAtOffsets(data: Uint8Array | Capture, offsets: readonly number[], options: ReplayOptions, visit: (offset: number, input: DetectInput) => void): Promise<void> {
  const capture = data instanceof Uint8Array ? captureFrom(Buffer.from(data.buffer, data.byteOffset, data.byteLength)) : data;
  const pending = [...offsets].sort((a, b) => a - b);
  const screen = new Screen({ cols: options.cols, rows: options.rows });
  const read = (): DetectInput => {
    const snapshot = screen.snapshot();
    return { lines: snapshot.lines, wrapped: snapshot.wrapped, title: snapshot.title, progress: snapshot.progress };
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
        while (pending.length > 0 && pending[0]! <= fed) visit(pending.shift()!, read());
        const cut = pending.length > 0 ? Math.min(chunk.data.length, from + (pending[0]! - fed)) : chunk.data.length;
        await screen.writeAsync(chunk.data.subarray(from, cut));
        fed += cut - from;
        from = cut;
      }
    }
    while (pending.length > 0) visit(pending.shift()!, read());
  } finally {
    screen.dispose();
  }
}

/** Every `step` bytes and at each chunk boundary a write would produce; for `--timeline`. */
export function timelineOffsets(length: number, step: number): number[] {
  const offsets: number[] = [];
  for (let at = step; at < length; at += step) offsets.push(at);
  offsets.push(length);
  return offsets;
}
