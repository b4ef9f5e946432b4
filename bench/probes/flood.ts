// Not a benchmark: what the floods of R4 (urandom, yes, OSC titles) cost in memory. Prints the daemon's
// and the host's RSS every second, then the live heap of each after a full collection (a heap snapshot)
// with the most numerous object kinds, the floods still running. RSS plateaus well above the live heap:
// the rest is garbage not yet collected and pages the allocator keeps.
// Run: node --import tsx bench/probes/flood.ts [seconds, default 20] [urandom|yes|titles, default all three]
import { heapCensus, startHeapDaemon } from '../../harness/heap.ts';
import { LineClient, numberedCaller } from '../../harness/line-client.ts';
import { rssKiB } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';

const seconds = Number(process.argv[2] ?? 20);
const only = process.argv[3];
const FLOODS = [
  { name: 'urandom', command: 'cat', args: ['/dev/urandom'] },
  { name: 'yes', command: 'yes', args: [] },
  { name: 'titles', command: 'awk', args: ['BEGIN { for (i = 0; ; i++) printf "\\033]0;title %d\\007", i }'] },
].filter((f) => !only || f.name === only);
const { daemon, heapDir } = await startHeapDaemon();
const client = await LineClient.connect(daemon.socket);
const call = numberedCaller(client);
await call('server.status', {});
for (const f of FLOODS) await call('pane.spawn', { command: f.command, args: f.args, name: f.name, cwd: daemon.dir });
const host = daemon.hostPids()[0]!;
for (let s = 0; s < seconds; s += 1) {
  const t = performance.now();
  await call('server.status', {});
  const ms = performance.now() - t;
  console.log(`${s}s daemon ${(rssKiB(daemon.pid) / 1024).toFixed(1)} MiB host ${(rssKiB(host) / 1024).toFixed(1)} MiB status ${ms.toFixed(1)} ms`);
  await sleep(1000);
}
const top = (c: Map<string, number>) => [...c].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k}:${v}`).join(' ');
const d = await heapCensus(daemon.pid, heapDir);
console.log(`daemon live heap ${(d.liveBytes / 1048576).toFixed(1)} MiB, rss after ${(rssKiB(daemon.pid) / 1024).toFixed(1)}; ${top(d.counts)}`);
const h = await heapCensus(host, heapDir);
console.log(`host live heap ${(h.liveBytes / 1048576).toFixed(1)} MiB, rss after ${(rssKiB(host) / 1024).toFixed(1)}; ${top(h.counts)}`);
client.destroy();
await daemon.dispose();
