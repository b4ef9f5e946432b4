// Not a benchmark: an A/B of V8 flags that can be changed while the process runs, inside one run of the
// scale bench's load (bench/scale.ts: 1 watched fake Claude, 100 busy panes redrawing at 10 Hz, 200 idle).
// The agent.wait trials are run in blocks, alternating setting A and setting B (v8.setFlagsFromString
// before each block), so both settings see the same machine, load and heap within seconds of each other.
// Per setting: wake-up latency, the event loop's delay (its own histogram, enabled only in its blocks),
// and the scavenges in its blocks.
// Only flags V8 reads at each collection belong here (--parallel-scavenge is read at every scavenge);
// --single-threaded-gc set at run time crashes V8 in its next marking, and the semi-space size is read
// once when the heap is made.
// Run: node --import tsx bench/probes/gc-ab.ts [blocks per setting, default 10] [trials per block, default 5]
//   (PROBE_FLAGS_A default "--parallel-scavenge", PROBE_FLAGS_B default "--no-parallel-scavenge")
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { DEFAULT_CONFIG } from '../../src/daemon/config/index.ts';
import { AGENT_WAIT, PANE_SEND, PANE_SPAWN, SERVER_STATUS } from '../../src/protocol/methods/index.ts';
import { BUSY_AGENT } from '../lib/programs.ts';
import { sleep } from '../../harness/wait.ts';
import { summary } from '../../harness/figures.ts';
import { startInProcessDaemon } from '../lib/in-process-daemon.ts';

const BLOCKS = Number(process.argv[2] ?? 10);
const TRIALS = Number(process.argv[3] ?? 5);
const BUSY = 100;
const IDLE = 200;
const SETTINGS = [process.env.PROBE_FLAGS_A ?? '--parallel-scavenge', process.env.PROBE_FLAGS_B ?? '--no-parallel-scavenge'];
const FAKE = fileURLToPath(new URL('../../test/fixtures/agents/fake-claude.mjs', import.meta.url));

const load = [loadavg()[0]!];
const { dir, daemon, client, stop } = await startInProcessDaemon('gc-ab', { ...DEFAULT_CONFIG, arbiter: { ...DEFAULT_CONFIG.arbiter, debounceMs: 100 } });
const publishedAt = new Map<number, number>();
daemon.agents.onChange((change) => publishedAt.set(change.seq, performance.now()));

const per = SETTINGS.map(() => ({ wake: [] as number[], loop: monitorEventLoopDelay({ resolution: 1 }), scavenges: [] as number[] }));
let current = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if ((entry as unknown as { detail: { kind: number } }).detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) per[current]!.scavenges.push(entry.duration);
  }
});

try {
  await client.call(SERVER_STATUS, {});
  const release = join(dir, 'release');
  await client.call(PANE_SPAWN, { command: process.execPath, args: [FAKE], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_RELEASE: release } });
  await sleep(1000);
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  for (let i = 0; i < IDLE; i += 1) await client.call(PANE_SPAWN, { command: 'sleep', args: ['100000'], cwd: dir });
  await sleep(3000);
  const waitFor = async (until: 'working' | 'idle', trigger: () => Promise<unknown>) => {
    const since = daemon.agents.stateChangeSeq;
    const waiting = client.call(AGENT_WAIT, { targets: ['bench'], until: [until], sinceSeq: since, timeoutMs: 60_000 }).then((result) => ({ result, at: performance.now() }));
    await trigger();
    const { result, at } = await waiting;
    const published = publishedAt.get(result.seq);
    if (published !== undefined) per[current]!.wake.push(at - published);
  };
  await client.call(AGENT_WAIT, { targets: ['bench'], until: ['idle'], timeoutMs: 60_000 });
  observer.observe({ entryTypes: ['gc'] });
  for (let block = 0; block < 2 * BLOCKS; block += 1) {
    current = block % 2;
    setFlagsFromString(SETTINGS[current]!);
    per[current]!.loop.enable();
    for (let i = 0; i < TRIALS; i += 1) {
      rmSync(release, { force: true });
      await waitFor('working', () => client.call(PANE_SEND, { target: 'bench', text: 'hold', keys: ['Enter'] }));
      await waitFor('idle', async () => writeFileSync(release, ''));
    }
    per[current]!.loop.disable();
  }
  observer.disconnect();
  load.push(loadavg()[0]!);
  const ms = (ns: number) => +(ns / 1e6).toFixed(2);
  const round = (v: number) => +v.toFixed(1);
  const results = SETTINGS.map((flags, i) => {
    const p = per[i]!;
    return {
      flags,
      wakeUpMs: summary(p.wake),
      loopDelayMs: { median: ms(p.loop.percentile(50)), p99: ms(p.loop.percentile(99)), max: ms(p.loop.max) },
      scavenges: { n: p.scavenges.length, ms: round(p.scavenges.reduce((a, b) => a + b, 0)), maxMs: round(Math.max(0, ...p.scavenges)), p99Ms: round(summary(p.scavenges).p99Ms) },
    };
  });
  console.log(JSON.stringify({ probe: 'gc-ab', blocks: BLOCKS, trialsPerBlock: TRIALS, results, loadAverage: load.map((l) => +l.toFixed(1)) }));
  for (const r of results) console.log(`${r.flags}: wake-up p99 ${r.wakeUpMs.p99Ms} ms (median ${r.wakeUpMs.medianMs}, n ${r.wakeUpMs.n}); loop delay p99 ${r.loopDelayMs.p99} ms; ${r.scavenges.n} scavenges, ${r.scavenges.ms} ms, longest ${r.scavenges.maxMs}`);
} finally {
  await stop();
}
