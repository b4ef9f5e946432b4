// Not a benchmark: where the daemon's garbage comes from with busy panes. Runs the daemon in this
// process (as bench/scale.ts does) with busy panes and, over a window, samples allocations with V8's
// sampling heap profiler; prints the bytes allocated per second and the functions that allocated the
// most, with the first frame of ours above each.
// Run: node --import tsx bench/probes/alloc.ts [busy, default 100] [seconds, default 10]
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { PANE_SPAWN } from '../../src/protocol/methods/index.ts';
import { BUSY_AGENT } from '../lib/programs.ts';
import { sleep } from '../../harness/wait.ts';
import { startInProcessDaemon } from '../lib/in-process-daemon.ts';

const BUSY = Number(process.argv[2] ?? 100);
const SECONDS = Number(process.argv[3] ?? 10);

interface SampleNode {
  id: number;
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SampleNode[];
}

const { dir, client, stop } = await startInProcessDaemon('alloc-probe');
const session = new Session();
session.connect();
try {
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  await sleep(3000);
  await session.post('HeapProfiler.enable');
  // Every sample stands for about 16 KiB allocated; objects collected since stay in the profile.
  await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  await sleep(SECONDS * 1000);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampleNode } };
  const where = (node: SampleNode) => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
  const ours = (node: SampleNode) => node.callFrame.url.includes('/src/');
  const bySelf = new Map<string, number>();
  const byOurs = new Map<string, number>();
  let total = 0;
  const walk = (node: SampleNode, path: SampleNode[]) => {
    if (node.selfSize > 0) {
      total += node.selfSize;
      const self = where(node);
      const mine = [...path, node].reverse().find(ours);
      const key = `${self}  <  ${mine ? where(mine) : '(none of ours)'}`;
      bySelf.set(key, (bySelf.get(key) ?? 0) + node.selfSize);
      const top = mine ? where(mine) : '(none of ours)';
      byOurs.set(top, (byOurs.get(top) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, [...path, node]);
  };
  walk(profile.head, []);
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  console.log(`${BUSY} busy panes, ${SECONDS} s, load ${loadavg()[0]!.toFixed(1)}: ${mib(total)} MiB sampled, ${mib(total / SECONDS)} MiB/s`);
  console.log('\nby the nearest frame of ours:');
  for (const [key, bytes] of [...byOurs].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${mib(bytes).padStart(8)} MiB ${((bytes / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  console.log('\nby allocating function:');
  for (const [key, bytes] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${mib(bytes).padStart(8)} MiB ${((bytes / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
} finally {
  session.disconnect();
  await stop();
}
