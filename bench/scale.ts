// Scale: 300 panes alive, 100 of them busy (bench/lib/busy-agent.sh redrawing at 10 Hz, identified as Claude
// Code) and 200 idle, plus one fake Claude that a wait watches. The daemon runs in this process with its
// pty host as in production (a process of its own), so that both moments of a wake-up (the agent change
// published in the daemon, the wait's answer at the client) are read from one clock.
//
// Measured at 1 pane, at 101 (with the busy ones) and at 301 (all), to say what grows with panes:
// - agent.list latency at a socket client, against server.status (a reply that does not depend on
//   the panes) in the same run as its baseline;
// - agent.wait wake-up: from the agent change published in the daemon to the reply read by a caller in
//   a process of its own (bench/lib/wait-client.ts, as a script's `corral agent wait` is), both moments on
//   the machine's monotonic clock; and, for comparison, by a caller in this process, whose reply waits
//   for a further turn of the daemon's own loop. Against the event loop's own delay in the same run
//   (monitorEventLoopDelay): a wake-up cannot beat the turn it waits for; and against the wake-up delay
//   of an idle process, the machine's run queue: at a load of several runnable processes per core, a
//   process waits its turn;
// - the daemon's garbage collection pauses in the same window: young-generation collections (scavenges),
//   their count, time and longest, and the young generation's size at the end; node flags given to this
//   process (node --no-parallel-scavenge --import tsx bench/scale.ts) are the daemon's;
// - RSS of the daemon (this process) and of the pty host, and the live heap of the daemon after a full
//   collection, per busy and per idle pane.
// Run: node --import tsx bench/scale.ts   (CORRAL_BENCH_BUSY, default 100; CORRAL_BENCH_IDLE, default 200)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_CONFIG } from '../src/daemon/config/index.ts';
import { AGENT_LIST, AGENT_WAIT, PANE_SEND, PANE_SPAWN, SERVER_STATUS } from '../src/protocol/methods/index.ts';
import { BUSY_AGENT } from './lib/programs.ts';
import { rssKiB } from '../harness/proc.ts';
import { sleep } from '../harness/wait.ts';
import { summary } from '../harness/figures.ts';
import { startInProcessDaemon } from './lib/in-process-daemon.ts';

const BUSY = Number(process.env.CORRAL_BENCH_BUSY ?? 100);
const IDLE = Number(process.env.CORRAL_BENCH_IDLE ?? 200);
const LIST_CALLS = 100;
const WAIT_TRIALS = 100;
const FAKE = fileURLToPath(new URL('../test/fixtures/agents/fake-claude.mjs', import.meta.url));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const mib = (kib: number) => +(kib / 1024).toFixed(1);
const load = [loadavg()[0]!];
const { dir, daemon, client, stop } = await startInProcessDaemon('bench-scale', { ...DEFAULT_CONFIG, arbiter: { ...DEFAULT_CONFIG.arbiter, debounceMs: 100 } });
const hostPid = daemon.host!.pid;
const publishedAt = new Map<number, { ms: number; ns: bigint }>();
daemon.agents.onChange((change) => publishedAt.set(change.seq, { ms: performance.now(), ns: process.hrtime.bigint() }));

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Memory now: RSS of the daemon and the host, and the daemon's live heap after a full collection . */
function memory() {
  gc();
  return { daemonRssMiB: mib(process.memoryUsage.rss() / 1024), hostRssMiB: mib(rssKiB(hostPid)), daemonHeapMiB: +(process.memoryUsage().heapUsed / 1048576).toFixed(1) };
}

/**
 * A process that only wakes every millisecond, measuring how late it wakes: the machine's run queue, in
 * the same run. No wake-up in the daemon can beat it; what the daemon adds is its own loop's work.
 */
function idleProcessDelay() {
  const code = `const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 1 }); h.enable();
process.stdin.on('end', () => { h.disable(); const ms = (ns) => +(ns / 1e6).toFixed(2);
  process.stdout.write(JSON.stringify({ median: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) })); });
process.stdin.resume();`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (data: Buffer) => (out += data.toString()));
  const ended = new Promise<{ median: number; p99: number; max: number }>((resolve) => child.once('exit', () => resolve(JSON.parse(out))));
  return { stop: () => (child.stdin.end(), ended) };
}

/** The waiting process (bench/lib/wait-client.ts): one wait per `wait` call, answered with its reply's moment. */
async function waitClient() {
  const script = fileURLToPath(new URL('./lib/wait-client.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, daemon.socketPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error('the waiting process ended');
    return line.value;
  };
  if ((await next()) !== 'ready') throw new Error('the waiting process did not connect');
  return {
    wait(until: 'working' | 'idle', sinceSeq: number): Promise<{ seq: number; atNs: bigint }> {
      child.stdin!.write(`${JSON.stringify({ target: 'bench', until, sinceSeq })}\n`);
      return next().then((line) => {
        const { seq, atNs } = JSON.parse(line) as { seq: number; atNs: string };
        return { seq, atNs: BigInt(atNs) };
      });
    },
    stop: () => child.stdin!.end(),
  };
}

/** Until `count` waits are registered in the daemon, so that a trigger never runs before a wait is in place. */
async function waitsRegistered(count: number) {
  while ((await client.call(SERVER_STATUS, {})).waits < count) await sleep(1);
}

/** The daemon's collection pauses while watched: scavenges apart from the rest (full and incremental marking). */
function gcPauses() {
  const young: number[] = [];
  const other: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) ((entry as unknown as { detail: { kind: number } }).detail.kind === constants.NODE_PERFORMANCE_GC_MINOR ? young : other).push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  const round = (v: number) => +v.toFixed(1);
  const sum = (xs: number[]) => ({ n: xs.length, ms: round(xs.reduce((a, b) => a + b, 0)), maxMs: round(Math.max(0, ...xs)) });
  return {
    stop: () => {
      observer.disconnect();
      const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!;
      return { scavenges: sum(young), other: sum(other), newSpaceMiB: round(newSpace.space_size / 1048576) };
    },
  };
}

/** agent.list and server.status, one after the other, LIST_CALLS times each. */
async function lists() {
  const list: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < LIST_CALLS; i += 1) {
    list.push(await timed(() => client.call(AGENT_LIST, {})));
    status.push(await timed(() => client.call(SERVER_STATUS, {})));
  }
  return { agentListMs: summary(list), serverStatusMs: summary(status) };
}

try {
  await client.call(SERVER_STATUS, {});
  // Each turn is held until the file `release` exists: a short timed turn can be drawn over by the idle
  // screen before the daemon looks (on a loaded machine), and then no working is ever seen to wait for.
  const release = join(dir, 'release');
  await client.call(PANE_SPAWN, { command: process.execPath, args: [FAKE], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_RELEASE: release } });
  await sleep(1000);
  const one = { memory: memory(), ...(await lists()) };
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  await sleep(3000);
  const busy = { memory: memory(), ...(await lists()) };
  for (let i = 0; i < IDLE; i += 1) await client.call(PANE_SPAWN, { command: 'sleep', args: ['100000'], cwd: dir });
  await sleep(3000);
  const all = { memory: memory(), ...(await lists()) };
  const agents = (await client.call(AGENT_LIST, {})).agents.length;

  const wake: number[] = [];
  const wakeInProcess: number[] = [];
  const waiter = await waitClient();
  const waitFor = async (until: 'working' | 'idle', trigger: () => Promise<unknown>) => {
    const since = daemon.agents.stateChangeSeq;
    const waiting = client.call(AGENT_WAIT, { targets: ['bench'], until: [until], sinceSeq: since, timeoutMs: 60_000 }).then((result) => ({ result, at: performance.now() }));
    const elsewhere = waiter.wait(until, since);
    await waitsRegistered(2);
    await trigger();
    const [{ result, at }, other] = await Promise.all([waiting, elsewhere]);
    const published = publishedAt.get(result.seq);
    if (published !== undefined) wakeInProcess.push(at - published.ms);
    const publishedOther = publishedAt.get(other.seq);
    if (publishedOther !== undefined) wake.push(Number(other.atNs - publishedOther.ns) / 1e6);
  };
  await client.call(AGENT_WAIT, { targets: ['bench'], until: ['idle'], timeoutMs: 60_000 });
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  const idleProcess = idleProcessDelay();
  const pauses = gcPauses();
  loopDelay.enable();
  for (let i = 0; i < WAIT_TRIALS; i += 1) {
    rmSync(release, { force: true });
    await waitFor('working', () => client.call(PANE_SEND, { target: 'bench', text: 'hold', keys: ['Enter'] }));
    await waitFor('idle', async () => writeFileSync(release, ''));
  }
  loopDelay.disable();
  waiter.stop();
  const gcDuringWaits = pauses.stop();
  const idleProcessDelayMs = await idleProcess.stop();
  load.push(loadavg()[0]!);
  const perPaneKiB = (from: { memory: ReturnType<typeof memory> }, to: { memory: ReturnType<typeof memory> }, panes: number) =>
    Math.round(((to.memory.daemonRssMiB + to.memory.hostRssMiB - from.memory.daemonRssMiB - from.memory.hostRssMiB) * 1024) / panes);
  const result = {
    bench: 'scale',
    panes: 1 + BUSY + IDLE,
    busy: BUSY,
    agents,
    withOne: { panes: 1, ...one },
    withBusy: { panes: 1 + BUSY, ...busy },
    withAll: { panes: 1 + BUSY + IDLE, ...all },
    waitWakeUpMs: summary(wake),
    inProcessWaitWakeUpMs: summary(wakeInProcess),
    eventLoopDelayMs: { median: +(loopDelay.percentile(50) / 1e6).toFixed(2), p99: +(loopDelay.percentile(99) / 1e6).toFixed(2), max: +(loopDelay.max / 1e6).toFixed(2) },
    idleProcessDelayMs,
    gcDuringWaits,
    nodeFlags: process.execArgv.filter((arg) => arg.startsWith('--') && arg !== '--import' && !arg.startsWith('--import=')),
    perBusyPaneKiB: perPaneKiB(one, busy, BUSY),
    perIdlePaneKiB: perPaneKiB(busy, all, IDLE),
    loadAverage: load.map((l) => +l.toFixed(1)),
  };
  console.log(JSON.stringify(result));
  const m = all.memory;
  console.log(
    `${result.panes} panes, ${BUSY} busy: agent.list p99 ${all.agentListMs.p99Ms} ms (goal at most 20; at ${1 + BUSY} panes ${busy.agentListMs.p99Ms}, at 1 ${one.agentListMs.p99Ms}; ` +
      `server.status p99 ${all.serverStatusMs.p99Ms} ms in the same run), agent.wait wake-up p99 ${result.waitWakeUpMs.p99Ms} ms (goal at most 5; ${result.inProcessWaitWakeUpMs.p99Ms} ms at a caller in the daemon's own process; event loop delay p99 ${result.eventLoopDelayMs.p99} ms; an idle process's wake-up delay p99 ${idleProcessDelayMs.p99} ms; ` +
      `${gcDuringWaits.scavenges.n} scavenges, ${gcDuringWaits.scavenges.ms} ms in all, longest ${gcDuringWaits.scavenges.maxMs} ms), ` +
      `RSS daemon ${m.daemonRssMiB} MiB + host ${m.hostRssMiB} MiB (goal at most 1024 for the daemon; ${result.perBusyPaneKiB} KiB per busy pane, ${result.perIdlePaneKiB} KiB per idle pane, daemon live heap ${one.memory.daemonHeapMiB} -> ${busy.memory.daemonHeapMiB} -> ${m.daemonHeapMiB} MiB); ` +
      `load average ${result.loadAverage.join(' to ')}`,
  );
} finally {
  await stop();
}
