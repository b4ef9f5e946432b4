import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamCase } from '../../src/cli/offline/conformance-run.ts';
import { readCapture } from '../../src/cli/offline/capture.ts';
import { replayCapture } from '../../src/cli/offline/replay-stream.ts';
import type { DetectInput } from '../../src/detect/types.ts';

export const STREAMS = fileURLToPath(new URL('../fixtures/streams/', import.meta.url));
/** One expectation file per blocked moment: `<agent folder>/<version>/<size>/<label>.json`. */
export const PROMPTS = fileURLToPath(new URL('../fixtures/prompts/', import.meta.url));

export interface BlockedMoment {
  /** The expectation file's path below PROMPTS. */
  name: string;
  label: StreamCase;
  input: DetectInput;
}

function labelFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return labelFiles(path);
    return entry === 'labels.json' ? [path] : [];
  });
}

/**
 * Every labelled blocked moment of the recorded streams (the shared corpus's two sessions are
 * `claude-code/` and `codex/`), each replayed through the emulator up to its byte: at its recorded
 * size, or, with `cols`, the recordings made at 120 columns in a pane `cols` wide.
 */
export async function blockedMoments(cols: number | null = null): Promise<BlockedMoment[]> {
  const moments: BlockedMoment[] = [];
  for (const file of labelFiles(STREAMS).sort()) {
    const labels = (JSON.parse(readFileSync(file, 'utf8')) as StreamCase[]).filter((label) => label.expect.state === 'blocked');
    if (labels.length === 0 || (cols !== null && labels[0]!.cols !== 120)) continue;
    const folder = relative(STREAMS, join(file, '..'));
    const capture = readCapture(join(STREAMS, labels[0]!.file));
    const found: BlockedMoment[] = [];
    await replayCapture(capture, labels.map((label) => ({ bytes: label.bytes })), { cols: cols ?? labels[0]!.cols, rows: labels[0]!.rows }, {
      point: (index, input) => found.push({ name: `${folder}/${labels[index]!.label}.json`, label: labels[index]!, input }),
    });
    moments.push(...found);
  }
  return moments;
}
