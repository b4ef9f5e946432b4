import type { Command } from 'commander';
import { evaluate } from '../../detect/evaluate.ts';
import { explain } from '../../detect/explain.ts';
import type { DetectInput, Verdict } from '../../detect/types.ts';
import { printJson, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { formatExplain } from './explain-format.ts';
import { offlineManifests, requireManifest } from './manifest-source.ts';
import { readCapture, truncateCapture, type Capture } from './capture.ts';
import { replayAtOffsets, timelineOffsets } from './replay-stream.ts';
import { timedVerdicts, type TimedVerdict } from './replay-timed.ts';

interface ReplayFlags {
  agent: string;
  cols?: string;
  rows?: string;
  bytes?: string;
  at?: string;
  step: string;
  timeline?: boolean;
  json?: boolean;
}

export interface TimelineEntry {
  offset: number;
  /** Seconds since the capture began (timed captures only). */
  time?: number;
  state: string;
  rule: string | null;
  skipStateUpdate: boolean;
}

export function registerReplayCommand(detect: Command): void {
  detect
    .command('replay <capture>')
    .description('feed a capture (asciicast v2, or raw terminal output) through the headless screen and print the verdict')
    .requiredOption('--agent <name>', 'the agent whose manifest reads the screen')
    .option('--cols <n>', 'terminal columns (default: the asciicast header, else 120)')
    .option('--rows <n>', 'terminal rows (default: the asciicast header, else 32)')
    .option('--bytes <n>', 'replay only the first N bytes of output')
    .option('--at <seconds>', 'judge the end at this time since the capture began (asciicast; default: the time of the last output)')
    .option('--timeline', 'print every change of verdict with its byte offset (and time, for an asciicast)')
    .option('--step <n>', 'with --timeline on raw bytes, evaluate every N bytes', '64')
    .option('--json', 'print JSON')
    .action(async function (this: Command, capture: string) {
      const flags = this.optsWithGlobals() as ReplayFlags;
      const whole = readCapture(capture);
      const cols = flags.cols === undefined ? (whole.cols ?? 120) : positive(flags.cols, '--cols');
      const rows = flags.rows === undefined ? (whole.rows ?? 32) : positive(flags.rows, '--rows');
      const end = flags.bytes === undefined ? whole.length : Math.min(positive(flags.bytes, '--bytes'), whole.length);
      const data = truncateCapture(whole, end);
      const manifest = requireManifest(offlineManifests(), flags.agent);
      const timed = data.timing !== 'none';
      if (flags.at !== undefined && !timed) throw new UsageError('--at needs a capture with timing (asciicast); raw bytes have none');
      const until = flags.at === undefined ? undefined : seconds(flags.at, '--at') * 1000;
      if (flags.timeline) {
        const entries = timed
          ? changesOf((await timedVerdicts(data, manifest, { cols, rows }, until)).verdicts)
          : await replayTimeline(data, { cols, rows }, positive(flags.step, '--step'), (input) => evaluate(manifest, input));
        if (flags.json) printJson(entries);
        else printText(entries.map((e) => `${String(e.offset).padStart(8)}${e.time === undefined ? '' : `  ${e.time.toFixed(3).padStart(9)}s`}  ${e.state.padEnd(8)} ${e.rule ?? '(fallback)'}${e.skipStateUpdate ? ' skip' : ''}`).join('\n'));
        return;
      }
      if (timed) {
        // Honour the timing: every chunk at its time through one memory, the end judged at --at.
        const replay = await timedVerdicts(data, manifest, { cols, rows }, until);
        const result = explain(manifest, replay.last, replay.memory);
        if (flags.json) printJson({ ...result, bytes: end, time: (replay.last.at ?? 0) / 1000 });
        else printText(`bytes:     ${end}\ntime:      ${((replay.last.at ?? 0) / 1000).toFixed(3)} s\n${formatExplain(result)}`);
        return;
      }
      let last: DetectInput | null = null;
      await replayAtOffsets(data, [end], { cols, rows }, (_offset, input) => (last = input));
      const result = explain(manifest, last!);
      if (flags.json) printJson({ ...result, bytes: end });
      else printText(`bytes:     ${end}\n${formatExplain(result)}`);
    });
}

/** Verdicts every `step` bytes, keeping only the offsets where the verdict changed. */
export async function replayTimeline(data: Capture, size: { cols: number; rows: number }, step: number, decide: (input: DetectInput) => Verdict): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [];
  await replayAtOffsets(data, timelineOffsets(data.length, step), size, (offset, input) => {
    const verdict = decide(input);
    const previous = entries[entries.length - 1];
    const entry = { offset, state: verdict.state, rule: verdict.rule?.id ?? null, skipStateUpdate: verdict.skipStateUpdate };
    if (!previous || previous.state !== entry.state || previous.rule !== entry.rule || previous.skipStateUpdate !== entry.skipStateUpdate) entries.push(entry);
  });
  return entries;
}

/** Only the moments the verdict changed, from every verdict of a timed replay. */
export function changesOf(verdicts: readonly TimedVerdict[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const { offset, at, verdict } of verdicts) {
    const previous = entries[entries.length - 1];
    const entry = { offset, time: at / 1000, state: verdict.state, rule: verdict.rule?.id ?? null, skipStateUpdate: verdict.skipStateUpdate };
    if (!previous || previous.state !== entry.state || previous.rule !== entry.rule || previous.skipStateUpdate !== entry.skipStateUpdate) entries.push(entry);
  }
  return entries;
}

function seconds(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${flag} must be a number of seconds >= 0, not "${text}"`);
  return value;
}

function positive(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a positive integer, not "${text}"`);
  return value;
}
