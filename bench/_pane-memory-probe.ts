// Not a benchmark: where the memory of panes that printed 1,200 lines goes, in the daemon and in its pty
// host apart. Spawns N printing panes (as bench/pane-memory.ts does), then reads each process's RSS split
// into malloc's heap ([heap]), other anonymous mappings (V8's pages, large buffers) and file mappings, at
// several times after the output ended, and finally the live heap after a full collection (a snapshot).
// Run: node --import tsx bench/_pane-memory-probe.ts [panes, default 40] [seconds to watch, default 40]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { makeTempDir } from '../test/helpers/daemon.ts';
import { heapCensus, LineClient, resultCaller, startHeapDaemon } from '../test/reliability/helpers.ts';
import { childPids, sleep } from './_lib.ts';

const PANES = Number(process.argv[2] ?? 40);
const WATCH_S = Number(process.argv[3] ?? 40);
const LINES = 1200;
const PRINTER = `for ((i = 1; i <= ${LINES}; i++)); do printf '%06d %s\\n' "$i" "$(printf 'x%.0s' {1..93})"; done; exec sleep 100000`;

interface Split {
  rss: number;
  brk: number;
  anon: number;
  file: number;
}

/** RSS in KiB by kind of mapping, from /proc/<pid>/smaps. */
function split(pid: number): Split {
  const out: Split = { rss: 0, brk: 0, anon: 0, file: 0 };
  let kind: keyof Split = 'anon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const name = head[2]!;
      kind = name === '[heap]' ? 'brk' : name === '' || name.startsWith('[anon') ? 'anon' : name.startsWith('/') ? 'file' : 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      out[kind] += Number(rss[1]);
      out.rss += Number(rss[1]);
    }
  }
  return out;
}

const diff = (a: Split, b: Split) => ({ rss: b.rss - a.rss, brk: b.brk - a.brk, anon: b.anon - a.anon, file: b.file - a.file });
const per = (s: Split) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v / PANES)]));

const dir = makeTempDir('corral-probe-');
const { daemon, heapDir } = await startHeapDaemon(dir);
const client = await LineClient.connect(daemon.socket);
const call = resultCaller(client);
try {
  await call('pane.spawn', { command: 'sleep', args: ['100000'], cwd: dir });
  await sleep(3000);
  const host = childPids(daemon.pid).find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node') ?? daemon.hostPids()[0]!;
  const base = { daemon: split(daemon.pid), host: split(host) };
  const ids: string[] = [];
  for (let i = 0; i < PANES; i += 1) ids.push((await call('pane.spawn', { command: 'bash', args: ['-c', PRINTER], cwd: dir })).id);
  for (const target of ids) {
    for (let i = 0; i < 600 && !(await call('pane.read', { target, source: 'screen' })).text.includes(String(LINES).padStart(6, '0')); i += 1) await sleep(100);
  }
  const start = Date.now();
  for (const at of [0, 3, 10, 20, 40, 60, 90].filter((s) => s <= WATCH_S)) {
    await sleep(start + at * 1000 - Date.now());
    console.log(JSON.stringify({ seconds: at, load: +loadavg()[0]!.toFixed(1), daemon: per(diff(base.daemon, split(daemon.pid))), host: per(diff(base.host, split(host))) }));
  }
  const daemonLive = await heapCensus(daemon.pid, heapDir);
  const hostLive = await heapCensus(host, heapDir);
  console.log(JSON.stringify({
    liveHeapMiB: { daemon: +(daemonLive.liveBytes / 2 ** 20).toFixed(1), host: +(hostLive.liveBytes / 2 ** 20).toFixed(1) },
    daemonByType: Object.fromEntries([...daemonLive.bytesByType].map(([k, v]) => [k, Math.round(v / 1024)])),
    hostByType: Object.fromEntries([...hostLive.bytesByType].map(([k, v]) => [k, Math.round(v / 1024)])),
    afterSnapshots: { daemon: per(diff(base.daemon, split(daemon.pid))), host: per(diff(base.host, split(host))) },
  }));
} finally {
  client.destroy();
  await daemon.dispose();
}
