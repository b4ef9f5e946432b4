// Not a benchmark: what holds the daemon's event loop. Runs the daemon in this process (as bench/scale.ts
// does) with busy panes, then adds idle ones, and for a window at each step prints the event loop's delay,
// the garbage collector's pauses, the process's CPU and the functions with the most self time.
// Run: node --import tsx bench/probes/loop.ts [busy, default 100] [idle, default 200] [seconds, default 10]
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { PANE_SPAWN } from '../../src/protocol/methods/index.ts';
import { BUSY_AGENT } from '../lib/programs.ts';
import { sleep } from '../../harness/wait.ts';
import { startInProcessDaemon } from '../lib/in-process-daemon.ts';

const BUSY = Number(process.argv[2] ?? 100);
const IDLE = Number(process.argv[3] ?? 200);
const SECONDS = Number(process.argv[4] ?? 10);

const { dir, client, stop } = await startInProcessDaemon('loop-probe');
const session = new Session();
session.connect();
await session.post('Profiler.enable');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

async function window(label: string): Promise<void> {
  const gcs: { kind: number; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs.push({ kind: (entry as unknown as { detail: { kind: number } }).detail.kind, ms: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpu = process.cpuUsage();
  await session.post('Profiler.start');
  delay.enable();
  await sleep(SECONDS * 1000);
  delay.disable();
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[] } };
  const used = process.cpuUsage(cpu);
  observer.disconnect();
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const self = new Map<string, number>();
  for (const node of profile.nodes) {
    const where = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
    self.set(where, (self.get(where) ?? 0) + (hits.get(node.id) ?? 0));
  }
  const total = profile.samples.length;
  const byKind = new Map<number, { n: number; ms: number; max: number }>();
  for (const { kind, ms } of gcs) {
    const k = byKind.get(kind) ?? { n: 0, ms: 0, max: 0 };
    byKind.set(kind, { n: k.n + 1, ms: k.ms + ms, max: Math.max(k.max, ms) });
  }
  const ms = (ns: number) => (ns / 1e6).toFixed(2);
  console.log(`\n== ${label}: load ${loadavg()[0]!.toFixed(1)}, CPU ${(((used.user + used.system) / 1e6 / SECONDS) * 100).toFixed(1)}% of a core`);
  console.log(`loop delay median ${ms(delay.percentile(50))} p90 ${ms(delay.percentile(90))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)} ms`);
  // kind: 1 scavenge, 2 mark-sweep-compact, 4 incremental marking, 8 weak callbacks
  for (const [kind, k] of byKind) console.log(`gc kind ${kind}: ${k.n} pauses, ${k.ms.toFixed(1)} ms in all, max ${k.max.toFixed(2)} ms`);
  for (const [where, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((n / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
}

try {
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  await sleep(3000);
  await window(`${BUSY} busy`);
  for (let i = 0; i < IDLE; i += 1) await client.call(PANE_SPAWN, { command: 'sleep', args: ['100000'], cwd: dir });
  await sleep(3000);
  await window(`${BUSY} busy + ${IDLE} idle`);
} finally {
  session.disconnect();
  await stop();
}
