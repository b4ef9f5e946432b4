import { Screen } from '../../terminal/screen.ts';
import type { DetectInput } from '../../detect/types.ts';

export interface ReplayOptions {
  cols: number;
  rows: number;
}

/**
 * Feeds a captured byte stream through the same headless screen panes use, and calls `visit`
 * with the detection input after each offset (ascending). Terminal replies go nowhere.
 */
export async function replayAtOffsets(data: Uint8Array, offsets: readonly number[], options: ReplayOptions, visit: (offset: number, input: DetectInput) => void): Promise<void> {
  const screen = new Screen({ cols: options.cols, rows: options.rows });
  try {
    let fed = 0;
    for (const offset of [...offsets].sort((a, b) => a - b)) {
      const end = Math.min(offset, data.length);
      if (end > fed) await screen.writeAsync(data.subarray(fed, end));
      fed = Math.max(fed, end);
      const snapshot = screen.snapshot();
      visit(offset, { lines: snapshot.lines, title: snapshot.title, progress: snapshot.progress });
    }
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
