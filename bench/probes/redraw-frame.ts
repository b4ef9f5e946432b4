// Not a benchmark: the daemon's work per frame of bench/lib/busy-agent.sh (the redraw of
// bench/redraw-cpu.ts), in one process and in CPU time, so that it is repeatable under load: the
// emulator's parse, the snapshot detection reads and the evaluation of Claude Code's manifest, each
// timed apart over the same frames, as the daemon runs them for one pane (parse, then snapshot and
// evaluate once per frame).
// With a number of screens, the frames go to each in turn, as the daemon's 100 panes do (each screen's
// cells are out of the processor's caches again by its next frame).
// Run: node --import tsx bench/probes/redraw-frame.ts [frames, default 5000] [repeats, default 3] [screens, default 1]
// (CORRAL_BENCH_DRAW=spinner: the frames of bench/lib/spinner-agent.sh, the screen once, then its spinner row)
import { loadavg } from 'node:os';
import { Screen } from '../../src/terminal/screen.ts';
import { evaluate } from '../../src/detect/evaluate.ts';
import { ScreenMemory } from '../../src/detect/screen-memory.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const FRAMES = Number(process.argv[2] ?? 5000);
const REPEATS = Number(process.argv[3] ?? 3);
const SCREENS = Number(process.argv[4] ?? 1);
const SPIN = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const RULE = '─'.repeat(100);

/** Frame `i` of busy-agent.sh, byte for byte: a title, a cleared screen, 20 transcript lines, a spinner and the prompt box. */
function frame(i: number): Buffer {
  const lines: string[] = [];
  for (let k = i - 19; k <= i; k++) lines.push(k >= 1 ? `  ⎿  src/module/file-${k % 13}.ts: updated line ${k} of the transcript, café 漢字 — tests passed` : '');
  const body = lines.map((line) => `${line}\r\n`).join('');
  return Buffer.from(`\x1b]0;${SPIN[i % 10]} Busy Agent\x07\x1b[H\x1b[2J${body}\r\n\x1b[38;5;174m✽\x1b[0m Tempering… (${Math.floor(i / 10)}s · esc to interrupt)\r\n\r\n${RULE}\r\n❯ \r\n${RULE}\r\n  ? for shortcuts`);
}

/** Tick `i` of spinner-agent.sh: the spinner row and title in a synchronized update, the transcript's rows again every tenth. */
function tick(i: number): Buffer {
  const row = (k: number) => `  ⎿  src/module/file-${k % 13}.ts: updated line ${k} of the transcript, café 漢字 — tests passed`;
  const newest = 19 + Math.floor(i / 10);
  let transcript = '';
  if (i === 0 || i % 10 === 0) for (let k = newest - 19; k <= newest; k++) transcript += `\x1b[${k - newest + 20};1H${row(k)}\x1b[K`;
  const spinner = `\x1b]0;${SPIN[i % 10]} Busy Agent\x07\x1b[21;1H\x1b[38;5;174m${SPIN[i % 10]}\x1b[0m Tempering… (tick ${i} · esc to interrupt)\x1b[K\x1b[24;3H`;
  if (i === 0) return Buffer.from(`\x1b[H\x1b[2J${transcript}\x1b[21;1H\x1b[38;5;174m✽\x1b[0m Tempering… (tick 0 · esc to interrupt)\r\n\r\n${RULE}\r\n❯ \r\n${RULE}\r\n  ? for shortcuts\x1b[24;3H`);
  return Buffer.from(`\x1b[?2026h${transcript}${spinner}\x1b[?2026l`);
}

const manifest = new ManifestSet({ userDir: null, catalogDir: null }).get('claude');
if (!manifest) throw new Error('no bundled claude manifest');
const frames = Array.from({ length: FRAMES }, (_, i) => (process.env.CORRAL_BENCH_DRAW === 'spinner' ? tick(i) : frame(i + 1)));

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

async function once(): Promise<{ parse: number; snapshot: number; evaluate: number; states: Set<string> }> {
  const screens = Array.from({ length: SCREENS }, () => ({ screen: new Screen({ cols: 120, rows: 32 }), memory: new ScreenMemory() }));
  const states = new Set<string>();
  let parse = 0;
  let snapshot = 0;
  let evaluation = 0;
  for (let i = 0; i < frames.length; i++) {
    const { screen, memory } = screens[i % SCREENS]!;
    let from = process.cpuUsage();
    await screen.writeAsync(frames[Math.floor(i / SCREENS)]!);
    parse += cpuMs(from);
    from = process.cpuUsage();
    const input = { ...screen.snapshot(), at: Math.floor(i / SCREENS) * 100 };
    snapshot += cpuMs(from);
    from = process.cpuUsage();
    states.add(evaluate(manifest!, input, memory).state);
    evaluation += cpuMs(from);
  }
  for (const { screen } of screens) screen.dispose();
  return { parse, snapshot, evaluate: evaluation, states };
}

await once(); // warm-up
const runs: Awaited<ReturnType<typeof once>>[] = [];
for (let r = 0; r < REPEATS; r++) runs.push(await once());
const perFrameUs = (key: 'parse' | 'snapshot' | 'evaluate') => +((Math.min(...runs.map((run) => run[key])) * 1000) / FRAMES).toFixed(1);
console.log(
  JSON.stringify({
    frames: FRAMES,
    screens: SCREENS,
    perFrameUs: { parse: perFrameUs('parse'), snapshot: perFrameUs('snapshot'), evaluate: perFrameUs('evaluate') },
    states: [...runs[0]!.states],
    load: +loadavg()[0]!.toFixed(1),
  }),
);
