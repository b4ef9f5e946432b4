// Latency from a blocked screen reaching the PTY to the `agent.attention` event at a subscriber,
// with 100 other panes redrawing a working screen at 10 Hz (bench/lib/busy-agent.sh), against the raw
// PTY round trip of the same bytes to a plain node-pty reader under the same load in the same run.
// Run: node --import tsx bench/attention-latency.ts   (CORRAL_BENCH_TRIALS, default 200;
// CORRAL_BENCH_BUSY, the busy panes, default 100)
//
// A tiny program draws a Claude-like idle prompt; on "b" it records the time, then draws a permission
// form; on "i" it draws the prompt again. Both ends read process.hrtime (CLOCK_MONOTONIC), one clock
// for the whole machine, so times taken in different processes compare directly.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { DaemonClient } from '../src/cli/client.ts';
import { EVENT } from '../src/protocol/events.ts';
import { EVENTS_SUBSCRIBE, type CorralEvent } from '../src/protocol/methods/events.ts';
import { PANE_KILL, PANE_SEND, PANE_SPAWN } from '../src/protocol/methods/pane.ts';
import { startDaemon, type DaemonProcess } from '../harness/daemon.ts';
import { BUSY_AGENT } from './lib/programs.ts';
import { cpuShare, daemonPids } from '../harness/proc.ts';
import { sleep } from '../harness/wait.ts';

const TRIALS = Number(process.env.CORRAL_BENCH_TRIALS ?? 200);
const BUSY = Number(process.env.CORRAL_BENCH_BUSY ?? 100);
const FORM_END = 'Esc to cancel';
const IDLE_END = '? for shortcuts';

const PROGRAM = String.raw`
const fs = require('node:fs');
const stamps = fs.openSync(process.env.STAMP_FILE, 'a');
const out = (s) => process.stdout.write(s);
const rule = '─'.repeat(78);
const idle = () => out('\x1b]0;✳ Bench Agent\x07\x1b[H\x1b[2JReady.\r\n\r\n' + [rule, '❯ ', rule, '  ? for shortcuts'].join('\r\n'));
const form = () => out('\x1b[H\x1b[2J' + [rule, ' Bash command', '', '   rm -rf /tmp/bench-scratch', '   Remove the scratch folder', '',
  ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No, and tell Claude what to do differently (esc)', '',
  ' Esc to cancel · Tab to amend · ctrl+e to explain'].join('\r\n'));
process.stdin.setRawMode(true);
process.stdin.on('data', (key) => {
  const k = key.toString();
  if (k === 'b') { fs.writeSync(stamps, process.hrtime.bigint() + '\n'); form(); }
  else if (k === 'i') idle();
  else if (k === 'q') process.exit(0);
});
process.on('SIGHUP', () => process.exit(0));
idle();
`;

const now = () => process.hrtime.bigint();
const ms = (ns: bigint) => Number(ns) / 1e6;

function lastStamp(file: string): bigint {
  return BigInt(readFileSync(file, 'utf8').trim().split('\n').at(-1)!);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Number(v.toFixed(3));
  return { trials: samples.length, medianMs: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1)!) };
}

/** The baseline: the same program on a plain node-pty, timed until the form's last line arrives. */
async function plainPty(dir: string, program: string): Promise<number[]> {
  const stampFile = join(dir, 'plain-stamps');
  const pty = spawnPty(process.execPath, [program], { cols: 120, rows: 32, env: { ...process.env, STAMP_FILE: stampFile } as Record<string, string> });
  let seen = '';
  let waiter: { text: string; resolve: (at: bigint) => void } | null = null;
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
    new Promise<bigint>((resolve) => {
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
    samples.push(ms(arrived - lastStamp(stampFile)));
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
  const client = await DaemonClient.connect(daemon.socket);
  const stampFile = join(dir, 'daemon-stamps');
  let waiter: { accept: (e: CorralEvent) => boolean; resolve: (at: bigint) => void } | null = null;
  client.onNotification(EVENT, (event) => {
    const at = now();
    if (waiter?.accept(event as CorralEvent)) {
      const w = waiter;
      waiter = null;
      w.resolve(at);
    }
  });
  const next = (accept: (e: CorralEvent) => boolean, act: () => Promise<unknown>) =>
    new Promise<bigint>((resolve, reject) => {
      waiter = { accept, resolve };
      act().catch(reject);
    });
  const toIdle = (e: CorralEvent) => e.kind === 'agent.stateChanged' && ['idle', 'done'].includes((e.data as { to: string }).to);
  try {
    await client.call(EVENTS_SUBSCRIBE, { filter: 'pane:bench' });
    const samples: number[] = [];
    await next(toIdle, () =>
      client.call(PANE_SPAWN, { command: process.execPath, args: [program], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', STAMP_FILE: stampFile } }),
    );
    for (let i = 0; i < TRIALS; i += 1) {
      const arrived = await next(
        (e) => e.kind === 'agent.attention' && (e.data as { state: string }).state === 'blocked',
        () => client.call(PANE_SEND, { target: 'bench', text: 'b' }),
      );
      samples.push(ms(arrived - lastStamp(stampFile)));
      await next(toIdle, () => client.call(PANE_SEND, { target: 'bench', text: 'i' }));
    }
    await client.call(PANE_KILL, { target: 'bench' });
    return samples;
  } finally {
    client.dispose();
  }
}

/** The load: BUSY panes running the busy agent, identified as Claude Code so detection runs on each. */
async function startLoad(daemon: { socket: string }, dir: string): Promise<void> {
  const client = await DaemonClient.connect(daemon.socket);
  try {
    for (let i = 0; i < BUSY; i += 1) {
      await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], name: `busy-${i}`, cwd: dir, env: { CORRAL_AGENT: 'claude' } });
    }
  } finally {
    client.dispose();
  }
  await sleep(3000); // every pane drawing and identified
}

const dir = mkdtempSync(join(tmpdir(), 'corral-bench-attention-'));
try {
  const program = join(dir, 'bench-agent.cjs');
  writeFileSync(program, PROGRAM);
  const daemon = await startBenchDaemon(dir);
  let plain, attention, daemonCpu;
  try {
    await startLoad(daemon, dir);
    daemonCpu = Number((await cpuShare(() => daemonPids(daemon.pid), 5000)).toFixed(3));
    plain = summary(await plainPty(dir, program));
    attention = summary(await throughDaemon(daemon, dir, program));
  } finally {
    await daemon.dispose();
  }
  const result = {
    bench: 'attention-latency',
    trials: TRIALS,
    busyPanes: BUSY,
    daemonCpuUnderLoad: daemonCpu,
    plainPty: plain,
    attentionEvent: attention,
    medianRatio: Number((attention.medianMs / plain.medianMs).toFixed(2)),
    p99Ratio: Number((attention.p99Ms / plain.p99Ms).toFixed(2)),
  };
  console.log(JSON.stringify(result));
  console.log(
    `with ${BUSY} panes redrawing at 10 Hz (daemon CPU ${(daemonCpu * 100).toFixed(1)}% of a core), blocked screen to agent.attention at a subscriber over ${TRIALS} trials: median ${attention.medianMs} ms, p99 ${attention.p99Ms} ms; ` +
      `raw PTY round trip median ${plain.medianMs} ms, p99 ${plain.p99Ms} ms (ratio ${result.medianRatio}x median, ${result.p99Ratio}x p99)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
