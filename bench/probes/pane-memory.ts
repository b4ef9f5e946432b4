// Not a benchmark: where the memory of panes that printed 1,200 lines goes, in the daemon and in its pty
// host apart. Spawns N printing panes (as bench/pane-memory.ts does), then reads each process's RSS split
// into malloc's heap ([heap]), other anonymous mappings (V8's pages, large buffers) and file mappings, at
// several times after the output ended, and finally the live heap after a full collection (a snapshot).
// Run: node --import tsx bench/probes/pane-memory.ts [panes, default 40] [seconds to watch, default 40]
// Each reading also gives V8's heap spaces (committed against used) and process.memoryUsage() of both, read
// through test/fixtures/heap-stats-preload.mjs; PROBE_NODE_FLAGS adds node flags to both
// processes. The base is read at start and, as bench/pane-memory.ts does, after PROBE_BASE_REST_S (30) at rest.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { makeTempDir, startDaemon } from '../../harness/daemon.ts';
import { heapCensus, heapSnapshotOptions } from '../../harness/heap.ts';
import { LineClient, resultCaller } from '../../harness/line-client.ts';
import { childPids } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';

const PANES = Number(process.argv[2] ?? 40);
const WATCH_S = Number(process.argv[3] ?? 40);
const BASE_REST_S = Number(process.env.PROBE_BASE_REST_S ?? 30);
const PRELOAD = fileURLToPath(new URL('../../test/fixtures/heap-stats-preload.mjs', import.meta.url));
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

interface Spaces {
  /** Per V8 space: committed size and the size of the objects in it, MiB. */
  [space: string]: { size: number; used: number } | number;
}

/** V8's heap spaces and process.memoryUsage() of a process loaded with test/fixtures/heap-stats-preload.mjs. */
async function heapSpaces(pid: number): Promise<Spaces> {
  const file = `${statsDir}/${pid}.json`;
  rmSync(file, { force: true });
  process.kill(pid, 'SIGPWR');
  for (let i = 0; !existsSync(file); i += 1) {
    if (i > 100) throw new Error(`no heap statistics from ${pid}`);
    await sleep(20);
  }
  const stats = JSON.parse(readFileSync(file, 'utf8')) as {
    spaces: { space_name: string; space_size: number; space_used_size: number }[];
    heap: { total_physical_size: number; malloced_memory: number; peak_malloced_memory: number };
    usage: NodeJS.MemoryUsage;
  };
  const m = (bytes: number) => +(bytes / 2 ** 20).toFixed(2);
  const out: Spaces = {};
  for (const space of stats.spaces) if (space.space_size > 0) out[space.space_name] = { size: m(space.space_size), used: m(space.space_used_size) };
  out.heapPhysical = m(stats.heap.total_physical_size);
  out.v8Malloced = m(stats.heap.malloced_memory);
  out.rss = m(stats.usage.rss);
  out.heapTotal = m(stats.usage.heapTotal);
  out.heapUsed = m(stats.usage.heapUsed);
  out.external = m(stats.usage.external);
  out.arrayBuffers = m(stats.usage.arrayBuffers);
  return out;
}

const diff = (a: Split, b: Split) => ({ rss: b.rss - a.rss, brk: b.brk - a.brk, anon: b.anon - a.anon, file: b.file - a.file });
const per = (s: Split) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v / PANES)]));

const dir = makeTempDir('corral-probe-');
const heapDir = `${dir}/heap`;
const statsDir = `${dir}/stats`;
mkdirSync(heapDir);
mkdirSync(statsDir);
const snapshotOptions = heapSnapshotOptions(heapDir).NODE_OPTIONS!;
const daemon = await startDaemon({ dir, env: { NODE_OPTIONS: `${snapshotOptions} --import ${PRELOAD} ${process.env.PROBE_NODE_FLAGS ?? ''}`.trim(), CORRAL_PROBE_HEAP_STATS: statsDir } });
const client = await LineClient.connect(daemon.socket);
const call = resultCaller(client);
try {
  await call('pane.spawn', { command: 'sleep', args: ['100000'], cwd: dir });
  await sleep(3000);
  const host = childPids(daemon.pid).find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node') ?? daemon.hostPids()[0]!;
  const reading = async (label: object) => {
    const now = { daemon: split(daemon.pid), host: split(host) };
    console.log(JSON.stringify({ ...label, load: +loadavg()[0]!.toFixed(1), daemonKiB: now.daemon, hostKiB: now.host, daemonV8MiB: await heapSpaces(daemon.pid), hostV8MiB: await heapSpaces(host) }));
    return now;
  };
  let base = await reading({ base: 'start' });
  // As bench/pane-memory.ts does, the base is read at rest too: the start's garbage collected.
  if (BASE_REST_S > 0) {
    await sleep(BASE_REST_S * 1000);
    base = await reading({ base: 'rested' });
  }
  const ids: string[] = [];
  for (let i = 0; i < PANES; i += 1) ids.push((await call('pane.spawn', { command: 'bash', args: ['-c', PRINTER], cwd: dir })).id);
  for (const target of ids) {
    for (let i = 0; i < 600 && !(await call('pane.read', { target, source: 'screen' })).text.includes(String(LINES).padStart(6, '0')); i += 1) await sleep(100);
  }
  const start = Date.now();
  for (const at of [0, 3, 10, 20, 33, 40, 60, 90].filter((s) => s <= WATCH_S)) {
    await sleep(start + at * 1000 - Date.now());
    const now = await reading({ seconds: at });
    console.log(JSON.stringify({ seconds: at, perPaneKiB: { daemon: per(diff(base.daemon, now.daemon)), host: per(diff(base.host, now.host)) } }));
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
