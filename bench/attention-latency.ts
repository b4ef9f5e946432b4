// Latency from a blocked screen reaching the PTY to the `agent.attention` event at a subscriber,
// with 100 other panes redrawing a working screen at 10 Hz (bench/lib/busy-agent.sh), against the raw
// PTY round trip of the same bytes to a plain node-pty reader under the same load in the same run.
// Run: node --import tsx bench/attention-latency.ts   (CORRAL_BENCH_TRIALS, default 200;
// CORRAL_BENCH_BUSY, the busy panes, default 100; CORRAL_BENCH_SPINNERS, processes that spin on the
// CPU meanwhile as other work, default 0: the machine's load average is reported beside the figures;
// CORRAL_BENCH_DRAW=spinner: the busy panes redraw only their spinner row, bench/lib/spinner-agent.sh)
//
// The program (bench/lib/blocking-agent.ts) draws a permission form on "b" and stamps the moment; both
// ends read CLOCK_MONOTONIC, one clock for the whole machine, so times taken in different processes
// compare directly.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { DaemonConnection } from '../src/cli/with-daemon.ts';
import { EVENTS_SUBSCRIBE } from '../src/protocol/methods/events.ts';
import { PANE_KILL, PANE_SEND, PANE_SPAWN } from '../src/protocol/methods/pane.ts';
import { startDaemon, type DaemonProcess } from '../harness/daemon.ts';
import { clockNow, FORM_END, IDLE_END, lastStamp, writeBlockingAgent } from './lib/blocking-agent.ts';
import { eventWaiter, isBackToIdle, isBlockedAttention } from './lib/event-waiter.ts';
import { BUSY_AGENT, SPINNER_AGENT } from './lib/programs.ts';
import { CpuSpinners } from './lib/cpu-spinners.ts';
import { summary } from '../harness/figures.ts';
import { cpuShare, daemonPids } from '../harness/proc.ts';
import { sleep } from '../harness/wait.ts';

const TRIALS = Number(process.env.CORRAL_BENCH_TRIALS ?? 200);
const BUSY = Number(process.env.CORRAL_BENCH_BUSY ?? 100);
const SPINNERS = Number(process.env.CORRAL_BENCH_SPINNERS ?? 0);
const now = clockNow('monotonic');

/** The baseline: the same program on a plain node-pty, timed until the form's last line arrives. */
async function plainPty(dir: string, program: string): Promise<number[]> {
  const stampFile = join(dir, 'plain-stamps');
  const pty = spawnPty(process.execPath, [program], { cols: 120, rows: 32, env: { ...process.env, STAMP_FILE: stampFile } as Record<string, string> });
  let seen = '';
  let waiter: { text: string; resolve: (at: number) => void } | null = null;
  pty.onData((data) => {
    const at = now();
    seen += data;
    if (waiter && seen.includes(waiter.text)) {
      const w = waiter;
      waiter = null;
      seen = '';
      w.resolve(at);
    }
  });
  const until = (text: string, send: string) =>
    new Promise<number>((resolve) => {
      waiter = { text, resolve };
      seen = '';
      pty.write(send);
    });
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (seen.includes(IDLE_END)) {
        clearInterval(check);
        resolve();
      }
    }, 10);
  });
  const samples: number[] = [];
  for (let i = 0; i < TRIALS; i += 1) {
    const arrived = await until(FORM_END, 'b');
    samples.push(arrived - lastStamp(stampFile));
    await until(IDLE_END, 'i');
  }
  pty.write('q');
  await new Promise((resolve) => pty.onExit(resolve));
  return samples;
}

/** A daemon with a short debounce; dispose() ends its pty host and every pane with it. */
async function startBenchDaemon(dir: string): Promise<DaemonProcess> {
  const config = join(dir, 'config.toml');
  // Only the reset to idle (leaving blocked) is debounced; a short window keeps the run quick.
  // Entering blocked, the path measured, is never debounced.
  writeFileSync(config, '[arbiter]\ndebounce_ms = 60\n');
  return startDaemon({ dir, args: ['--config', config] });
}

async function throughDaemon(daemon: { socket: string }, dir: string, program: string): Promise<number[]> {
  const client = await DaemonConnection.connect(daemon.socket);
  const stampFile = join(dir, 'daemon-stamps');
  const next = eventWaiter(client, now);
  try {
    await client.call(EVENTS_SUBSCRIBE, { filter: 'pane:bench' });
    const samples: number[] = [];
    await next(isBackToIdle, () =>
      client.call(PANE_SPAWN, { command: process.execPath, args: [program], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', STAMP_FILE: stampFile } }),
    );
    for (let i = 0; i < TRIALS; i += 1) {
      const arrived = await next(isBlockedAttention, () => client.call(PANE_SEND, { target: 'bench', text: 'b' }));
      samples.push(arrived - lastStamp(stampFile));
      await next(isBackToIdle, () => client.call(PANE_SEND, { target: 'bench', text: 'i' }));
    }
    await client.call(PANE_KILL, { target: 'bench' });
    return samples;
  } finally {
    client.dispose();
  }
}

/** The load: BUSY panes running the busy agent, identified as Claude Code so detection runs on each. */
async function startLoad(daemon: { socket: string }, dir: string): Promise<void> {
  const client = await DaemonConnection.connect(daemon.socket);
  try {
    for (let i = 0; i < BUSY; i += 1) {
      await client.call(PANE_SPAWN, { command: 'bash', args: [process.env.CORRAL_BENCH_DRAW === 'spinner' ? SPINNER_AGENT : BUSY_AGENT], name: `busy-${i}`, cwd: dir, env: { CORRAL_AGENT: 'claude' } });
    }
  } finally {
    client.dispose();
  }
  await sleep(3000); // every pane drawing and identified
}

const dir = mkdtempSync(join(tmpdir(), 'corral-bench-attention-'));
try {
  const program = writeBlockingAgent(dir, 'monotonic');
  const daemon = await startBenchDaemon(dir);
  let plain, attention, daemonCpu;
  const loads: number[] = [];
  const spinners = new CpuSpinners(SPINNERS);
  try {
    await startLoad(daemon, dir);
    // The load average is a 1-minute mean: with spinners, wait until it shows them.
    if (SPINNERS > 0) await sleep(Number(process.env.CORRAL_BENCH_SPIN_WARM_MS ?? 45_000));
    loads.push(loadavg()[0]!);
    daemonCpu = Number((await cpuShare(() => daemonPids(daemon.pid), 5000)).toFixed(3));
    plain = summary(await plainPty(dir, program));
    loads.push(loadavg()[0]!);
    attention = summary(await throughDaemon(daemon, dir, program));
    loads.push(loadavg()[0]!);
  } finally {
    spinners.dispose();
    await daemon.dispose();
  }
  const result = {
    bench: 'attention-latency',
    trials: TRIALS,
    busyPanes: BUSY,
    spinners: SPINNERS,
    loadAverage: loads.map((load) => Number(load.toFixed(1))),
    daemonCpuUnderLoad: daemonCpu,
    plainPty: plain,
    attentionEvent: attention,
    medianRatio: Number((attention.medianMs / plain.medianMs).toFixed(2)),
    p99Ratio: Number((attention.p99Ms / plain.p99Ms).toFixed(2)),
  };
  console.log(JSON.stringify(result));
  console.log(
    `with ${BUSY} panes redrawing at 10 Hz (daemon CPU ${(daemonCpu * 100).toFixed(1)}% of a core), blocked screen to agent.attention at a subscriber over ${TRIALS} trials, ${SPINNERS} spinners, load average ${result.loadAverage.join(' / ')}: median ${attention.medianMs} ms, p99 ${attention.p99Ms} ms; ` +
      `raw PTY round trip median ${plain.medianMs} ms, p99 ${plain.p99Ms} ms (ratio ${result.medianRatio}x median, ${result.p99Ratio}x p99)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
