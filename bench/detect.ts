// Microseconds per detection evaluation on full 120x32 screens (target: under 100 us for claude).
// Run: node --import tsx bench/detect.ts   (prints one JSON line, then a line for people)
import { readCapture } from '../src/cli/offline/capture.ts';
import { fileURLToPath } from 'node:url';
import { replayAtOffsets } from '../src/cli/offline/replay-stream.ts';
import { evaluate } from '../src/detect/evaluate.ts';
import { explain } from '../src/detect/explain.ts';
import { ManifestSet } from '../src/manifest-store/manifest-set.ts';
import type { CompiledManifest } from '../src/detect/compiled.ts';
import type { DetectInput } from '../src/detect/types.ts';

const STREAMS = fileURLToPath(new URL('../test/fixtures/streams/', import.meta.url));
const ITERATIONS = Number(process.env.CORRAL_BENCH_ITERATIONS ?? 20000);
const TARGET_US = 100;

async function screensOf(file: string, offsets: Record<string, number>): Promise<Record<string, DetectInput>> {
  const found: Record<string, DetectInput> = {};
  await replayAtOffsets(readCapture(file), Object.values(offsets), { cols: 120, rows: 32 }, (offset, input) => {
    for (const [name, at] of Object.entries(offsets)) if (at === offset) found[name] = input;
  });
  return found;
}

/** A full screen of conversation prose where no rule matches: every rule runs to the end. */
function proseScreen(): DetectInput {
  const line = 'The function returns early when the cache is warm; would you like me to refactor it? '.repeat(2).slice(0, 120);
  return { lines: Array.from({ length: 32 }, () => line), title: null, progress: null };
}

function time(manifest: CompiledManifest, input: DetectInput, run: typeof evaluate | typeof explain): number {
  for (let i = 0; i < 1000; i++) run(manifest, input);
  const start = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) run(manifest, input);
  return Number(process.hrtime.bigint() - start) / 1000 / ITERATIONS;
}

const manifests = new ManifestSet({ userDir: null, catalogDir: null });
const cases: [string, Record<string, DetectInput>][] = [
  ['claude', { ...(await screensOf(`${STREAMS}claude-code/session.cast`, { idle: 23054, working: 18595, blocked: 13117 })), prose: proseScreen() }],
  ['codex', { ...(await screensOf(`${STREAMS}codex/session.cast`, { idle: 38194, working: 30326, blocked: 24895 })), prose: proseScreen() }],
];

const results: Record<string, Record<string, { evaluate_us: number; explain_us: number; state: string }>> = {};
for (const [agent, screens] of cases) {
  const manifest = manifests.get(agent)!;
  results[agent] = {};
  for (const [name, input] of Object.entries(screens)) {
    results[agent]![name] = {
      evaluate_us: Number(time(manifest, input, evaluate).toFixed(2)),
      explain_us: Number(time(manifest, input, explain).toFixed(2)),
      state: evaluate(manifest, input).state,
    };
  }
}
const claudeWorst = Math.max(...Object.values(results.claude!).map((r) => r.evaluate_us));
console.log(JSON.stringify({ bench: 'detect', cols: 120, rows: 32, iterations: ITERATIONS, target_us: TARGET_US, claude_worst_us: claudeWorst, results }));
console.log(
  `detect: claude worst ${claudeWorst.toFixed(1)} us per evaluation on a 120x32 screen (target < ${TARGET_US} us) ${claudeWorst < TARGET_US ? 'ok' : 'OVER TARGET'}; ` +
    Object.entries(results)
      .map(([agent, r]) => `${agent} ${Object.entries(r).map(([name, v]) => `${name} ${v.evaluate_us}`).join(', ')}`)
      .join('; '),
);
