// Scale: 300 panes alive, 100 of them busy (bench/busy-agent.sh redrawing at 10 Hz, identified as Claude
// Code) and 200 idle. Measures agent.list latency at a socket client, agent.wait wake-up (the agent
// change published in the daemon to the wait's answer at the client), and RSS at 0, 100 busy and 300
// panes, to say what grows with panes. The daemon runs in this process with its panes' PTYs (no pty
// host), so both moments of a wake-up are read from one clock and RSS counts what daemon and host hold.
// Run: node --import tsx bench/scale.ts   (CORRAL_BENCH_BUSY, default 100; CORRAL_BENCH_IDLE, default 200)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonClient } from '../src/cli/client.ts';
import { Daemon } from '../src/daemon/daemon.ts';
import { DEFAULT_CONFIG } from '../src/daemon/config/index.ts';
import { createLogger } from '../src/daemon/logger.ts';
import { AGENT_LIST, AGENT_WAIT, PANE_SEND, PANE_SPAWN, SERVER_STATUS } from '../src/protocol/methods/index.ts';
import { spawnTerminalPane } from '../src/terminal/pane.ts';
import { BUSY_AGENT, sleep, summary } from './_lib.ts';

const BUSY = Number(process.env.CORRAL_BENCH_BUSY ?? 100);
const IDLE = Number(process.env.CORRAL_BENCH_IDLE ?? 200);
const LIST_CALLS = 200;
const WAIT_TRIALS = 50;
const FAKE = fileURLToPath(new URL('../test/fixtures/agents/fake-claude.mjs', import.meta.url));

const rssMiB = () => +(process.memoryUsage.rss() / 1048576).toFixed(1);
const load = [loadavg()[0]!];
const dir = mkdtempSync(join(tmpdir(), 'corral-bench-scale-'));
const config = { ...DEFAULT_CONFIG, arbiter: { ...DEFAULT_CONFIG.arbiter, debounceMs: 100 } };
const daemon = await Daemon.start({ socketPath: join(dir, 'corral.sock'), log: createLogger('silent'), spawnTerminal: spawnTerminalPane, config });
const publishedAt = new Map<number, number>();
daemon.agents.onChange((change) => publishedAt.set(change.seq, performance.now()));
const client = await DaemonClient.connect(daemon.socketPath);

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

try {
  await client.call(SERVER_STATUS, {});
  const rssEmpty = rssMiB();
  await client.call(PANE_SPAWN, { command: process.execPath, args: [FAKE], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '30' } });
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  await sleep(3000);
  const rssBusy = rssMiB();
  for (let i = 0; i < IDLE; i += 1) await client.call(PANE_SPAWN, { command: 'sleep', args: ['100000'], cwd: dir });
  await sleep(3000);
  const rssAll = rssMiB();

  const list: number[] = [];
  for (let i = 0; i < LIST_CALLS; i += 1) list.push(await timed(() => client.call(AGENT_LIST, {})));
  const status: number[] = [];
  for (let i = 0; i < LIST_CALLS; i += 1) status.push(await timed(() => client.call(SERVER_STATUS, {})));

  const wake: number[] = [];
  const waitFor = async (until: 'working' | 'idle', trigger: () => Promise<unknown>) => {
    const since = daemon.agents.stateChangeSeq;
    const waiting = client.call(AGENT_WAIT, { targets: ['bench'], until: [until], sinceSeq: since, timeoutMs: 60_000 }).then((result) => ({ result, at: performance.now() }));
    await trigger();
    const { result, at } = await waiting;
    const published = publishedAt.get(result.seq);
    if (published !== undefined) wake.push(at - published);
  };
  await client.call(AGENT_WAIT, { targets: ['bench'], until: ['idle'], timeoutMs: 60_000 });
  for (let i = 0; i < WAIT_TRIALS; i += 1) {
    await waitFor('working', () => client.call(PANE_SEND, { target: 'bench', text: `task ${i}`, keys: ['Enter'] }));
    await waitFor('idle', async () => {});
  }
  load.push(loadavg()[0]!);
  const result = {
    bench: 'scale',
    panes: 1 + BUSY + IDLE,
    busy: BUSY,
    agentListMs: summary(list),
    serverStatusMs: summary(status),
    waitWakeUpMs: summary(wake),
    rssMiB: { empty: rssEmpty, withBusy: rssBusy, withAll: rssAll },
    perBusyPaneKiB: Math.round(((rssBusy - rssEmpty) * 1024) / (BUSY + 1)),
    perIdlePaneKiB: Math.round(((rssAll - rssBusy) * 1024) / IDLE),
    loadAverage: load.map((l) => +l.toFixed(1)),
  };
  console.log(JSON.stringify(result));
  console.log(
    `${result.panes} panes, ${BUSY} busy: agent.list p99 ${result.agentListMs.p99Ms} ms (goal at most 20; server.status p99 ${result.serverStatusMs.p99Ms} ms in the same run), ` +
      `agent.wait wake-up p99 ${result.waitWakeUpMs.p99Ms} ms (goal at most 5), RSS ${rssAll} MiB (goal at most 1024; ${result.perBusyPaneKiB} KiB per busy pane, ${result.perIdlePaneKiB} KiB per idle pane); load average ${result.loadAverage.join(' to ')}`,
  );
} finally {
  client.dispose();
  await daemon.stop();
  rmSync(dir, { recursive: true, force: true });
}
