import type { CompiledManifest } from '../../detect/compiled.ts';
import { evaluate } from '../../detect/evaluate.ts';
import { ScreenMemory } from '../../detect/screen-memory.ts';
import type { DetectInput, Verdict } from '../../detect/types.ts';
import type { Capture } from './capture.ts';
import { replayCapture, type ReplayOptions } from './replay-stream.ts';

export interface TimedVerdict {
  offset: number; // output bytes fed
  at: number; // ms since the capture began
  verdict: Verdict;
}

export interface TimedReplay {
  verdicts: TimedVerdict[];
  /** The screen at the end, stamped with the time it is judged at. */
  last: DetectInput;
  memory: ScreenMemory;
}

/**
 * Every verdict a live pane would reach on this capture: one evaluation after each piece of output
 * at its recorded time, and one at each time a verdict said it could change with no new output
 * (`recheckAt`) before the next output arrived, as the daemon's timer does. One memory throughout.
 * `until` (ms) judges the end at that time, rechecks on the way included; default: the last output's time.
 */
export async function timedVerdicts(capture: Capture, manifest: CompiledManifest, options: ReplayOptions, until?: number): Promise<TimedReplay> {
  const memory = new ScreenMemory();
  const verdicts: TimedVerdict[] = [];
  let recheckAt: number | null = null;
  let last: DetectInput | null = null;
  const judge = (input: DetectInput, offset: number) => {
    const verdict = evaluate(manifest, input, memory);
    verdicts.push({ offset, at: input.at ?? 0, verdict });
    recheckAt = verdict.recheckAt;
  };
  const catchUp = (before: number, offset: number, read: (at: number | null) => DetectInput) => {
    while (recheckAt !== null && recheckAt < before) judge(read(recheckAt), offset);
  };
  let fed = 0;
  await replayCapture(capture, [{ bytes: Number.MAX_SAFE_INTEGER }], options, {
    beforeOutput: (at, read) => catchUp(at ?? 0, fed, read),
    output: (input, bytes) => {
      fed = bytes;
      judge(input, bytes);
    },
    point: (_index, input) => {
      const end = until ?? input.at ?? 0;
      catchUp(end, fed, (at) => ({ ...input, at }));
      last = { ...input, at: end };
    },
  });
  return { verdicts, last: last!, memory };
}
