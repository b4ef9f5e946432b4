// agent.wait wake-up latency: from the moment the daemon publishes the agent change a wait is
// waiting for, to the wait's response arriving at a client on the socket; against a plain
// server.status round trip on the same socket in the same run. The daemon runs in this process so
// both moments are read from one clock; the fake agent works on a real PTY.
// Run alone: node --import tsx bench/wait-latency.ts   (CORRAL_BENCH_TRIALS, default 100; each trial
// waits twice: for working after a prompt, then for the idle after the work)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonConnection } from '../src/cli/with-daemon.ts';
import { Daemon } from '../src/daemon/daemon.ts';
import { DEFAULT_CONFIG } from '../src/daemon/config/index.ts';
import { createLogger } from '../src/daemon/logger.ts';
import { AGENT_WAIT, PANE_SEND, PANE_SPAWN, SERVER_STATUS } from '../src/protocol/methods/index.ts';
import { spawnTerminalPane } from '../src/terminal/in-process-pane.ts';

const trials = Number(process.env.CORRAL_BENCH_TRIALS ?? 100);
// The debounce only delays when idle is published, not how fast a wait wakes on it; shorter trials.
const DEBOUNCE_MS = 100;
const WORK_MS = 30;
const FAKE = fileURLToPath(new URL('../test/fixtures/agents/fake-claude.mjs', import.meta.url));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(samples: number[]): { median: number; p99: number; max: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (ms: number) => +ms.toFixed(3);
  return { median: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1)!), n: sorted.length };
}

const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
const config = { ...DEFAULT_CONFIG, arbiter: { ...DEFAULT_CONFIG.arbiter, debounceMs: DEBOUNCE_MS } };
const daemon = await Daemon.start({ socketPath: join(dir, 'corral.sock'), log: createLogger('silent'), spawnTerminal: spawnTerminalPane, config });
const publishedAt = new Map<number, number>();
// Registered after the wait hub, so it runs a few microseconds after the wait was judged: never later than the reply is written.
daemon.agents.onChange((change) => publishedAt.set(change.seq, performance.now()));
const client = await DaemonConnection.connect(daemon.socketPath);

async function waitFor(until: 'working' | 'idle', trigger: () => Promise<unknown>): Promise<number> {
  const since = daemon.agents.stateChangeSeq;
  const waiting = client
    .call(AGENT_WAIT, { targets: ['bench'], until: [until], sinceSeq: since, timeoutMs: 10_000 })
    .then((result) => ({ result, at: performance.now() }));
  await trigger();
  const { result, at } = await waiting;
  const published = publishedAt.get(result.seq);
  if (published === undefined) throw new Error(`no publish time for seq ${result.seq}`);
  return at - published;
}

try {
  await client.call(PANE_SPAWN, { command: process.execPath, args: [FAKE], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: String(WORK_MS) } });
  await client.call(AGENT_WAIT, { targets: ['bench'], until: ['idle'], timeoutMs: 10_000 });
  const wake: number[] = [];
  const roundTrip: number[] = [];
  for (let i = 0; i < trials; i += 1) {
    const start = performance.now();
    await client.call(SERVER_STATUS, {});
    roundTrip.push(performance.now() - start);
    wake.push(await waitFor('working', () => client.call(PANE_SEND, { target: 'bench', text: `task ${i}`, keys: ['Enter'] })));
    wake.push(await waitFor('idle', async () => {}));
  }
  const result = {
    bench: 'wait-latency',
    trials,
    wakeUpMs: summary(wake),
    statusRoundTripMs: summary(roundTrip),
    note: 'wake-up: agent change published in the daemon -> agent.wait response parsed by a socket client (same process, one clock)',
  };
  console.log(JSON.stringify(result));
  console.log(
    `agent.wait wake-up: median ${result.wakeUpMs.median} ms, p99 ${result.wakeUpMs.p99} ms over ${wake.length} waits; ` +
      `server.status round trip: median ${result.statusRoundTripMs.median} ms, p99 ${result.statusRoundTripMs.p99} ms`,
  );
} finally {
  client.dispose();
  await daemon.stop();
  rmSync(dir, { recursive: true, force: true });
}
