// Not a benchmark: what a daemon keeps over spawn-and-kill churn. Starts a daemon that writes a heap
// snapshot on SIGUSR2 (a snapshot collects garbage first), runs batches of spawn-and-kill cycles, and
// after each batch prints the daemon's and the pty host's CPU per cycle, RSS, V8 heap used and external
// memory as the snapshot saw them; at the end,
// the object kinds whose count grew most between the first and the last snapshot.
// Run: node --import tsx bench/probes/churn.ts [batches, default 5] [cycles per batch, default 200] [command, default bash]
// (PROBE_SNAPSHOTS=ends: snapshots only after the warm-up and at the end)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PANE_KILL, PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { connectWhenUp } from '../lib/connect-when-up.ts';
import { cpuSeconds, daemonPids, rssKiB } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';

const batches = Number(process.argv[2] ?? 5);
const perBatch = Number(process.argv[3] ?? 200);
const command = process.argv[4] ?? 'bash';
const CORRAL_BIN = fileURLToPath(new URL('../../bin/corral', import.meta.url));

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self size per object kind ("type:name"), and the total heap the snapshot holds. */
function census(file: string): { kinds: Map<string, { count: number; size: number }>; total: number } {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const kinds = new Map<string, { count: number; size: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt!]!]!;
    const name = type === 'object' || type === 'closure' || type === 'native' ? snap.strings[snap.nodes[i + nameAt!]!]! : '';
    const key = `${type}:${name.slice(0, 60)}`;
    const size = snap.nodes[i + sizeAt!]!;
    const entry = kinds.get(key) ?? { count: 0, size: 0 };
    entry.count += 1;
    entry.size += size;
    kinds.set(key, entry);
    total += size;
  }
  return { kinds, total };
}

/** Resident KiB of the process by kind of mapping: malloc's brk heap, other anonymous memory (V8's pages, thread arenas), files. */
function mappings(pid: number): { brk: number; anon: number; file: number } {
  const out = { brk: 0, anon: 0, file: 0 };
  let kind: 'brk' | 'anon' | 'file' = 'anon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) kind = head[1] === '[heap]' ? 'brk' : head[1]!.startsWith('/') ? 'file' : 'anon';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]);
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'corral-churn-'));
try {
  const socket = join(dir, 'corral.sock');
  const child = spawn(process.execPath, ['--heapsnapshot-signal=SIGUSR2', CORRAL_BIN, 'daemon', '--socket', socket, '--log-level', 'warn'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), XDG_STATE_HOME: join(dir, 's') },
  });
  const client = await connectWhenUp(socket);
  const snapshots: string[] = [];
  const takeSnapshot = async (): Promise<string> => {
    const before = new Set(readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
    child.kill('SIGUSR2');
    for (;;) {
      await sleep(200);
      const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
      if (!file) continue;
      const size = statSync(join(dir, file)).size;
      await sleep(300);
      if (statSync(join(dir, file)).size === size && size > 0) return join(dir, file);
    }
  };
  for (let batch = 0; batch <= batches; batch += 1) {
    const cycles = batch === 0 ? 100 : perBatch;
    const [daemonPid, hostPid] = daemonPids(child.pid!);
    const cpuBefore = [cpuSeconds(daemonPid!), hostPid === undefined ? 0 : cpuSeconds(hostPid)];
    for (let i = 0; i < cycles; i += 1) {
      const pane = await client.call(PANE_SPAWN, { command, args: command === 'bash' ? ['--norc', '--noprofile'] : [], cwd: dir });
      await client.call(PANE_KILL, { target: pane.id });
    }
    // CPU per cycle, read before the pause and the snapshot so that neither is counted.
    const perCycle = (seconds: number) => ((seconds * 1000) / cycles).toFixed(1);
    console.log(
      `batch ${batch}: CPU per cycle daemon ${perCycle(cpuSeconds(daemonPid!) - cpuBefore[0]!)} ms, ` +
        `host ${hostPid === undefined ? 'not up yet' : perCycle(cpuSeconds(hostPid) - cpuBefore[1]!)} ms; load ${loadavg()[0]!.toFixed(1)}`,
    );
    await sleep(1000);
    // PROBE_SNAPSHOTS=ends: a snapshot only after the warm-up and at the end, so the snapshots' own
    // buffers do not stir the allocator's heap in between.
    const snap = process.env.PROBE_SNAPSHOTS !== 'ends' || batch === 0 || batch === batches;
    const file = snap ? await takeSnapshot() : null;
    if (file) snapshots.push(file);
    const total = file ? census(file).total : NaN;
    const host = daemonPids(child.pid!).slice(1).map((pid) => (rssKiB(pid) / 1024).toFixed(1));
    const maps = mappings(child.pid!);
    console.log(
      `after ${batch === 0 ? 100 : 100 + batch * perBatch} cycles: daemon RSS ${(rssKiB(child.pid!) / 1024).toFixed(1)} MiB ` +
        `(malloc brk heap ${(maps.brk / 1024).toFixed(1)}, other anonymous ${(maps.anon / 1024).toFixed(1)}, files ${(maps.file / 1024).toFixed(1)}), ` +
        `live heap in snapshot ${(total / 1048576).toFixed(1)} MiB; host RSS ${host.join(', ')} MiB`,
    );
  }
  client.dispose();
  const first = census(snapshots[0]!).kinds;
  const last = census(snapshots.at(-1)!).kinds;
  const grown = [...last]
    .map(([key, v]) => ({ key, count: v.count - (first.get(key)?.count ?? 0), size: v.size - (first.get(key)?.size ?? 0) }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 25);
  console.log(`grown between the first and the last snapshot (${batches * perBatch} cycles):`);
  for (const g of grown) console.log(`${String(g.count).padStart(8)} objects ${(g.size / 1024).toFixed(1).padStart(9)} KiB  ${g.key}`);
  const host = daemonPids(child.pid!).slice(1);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  for (const pid of host) process.kill(pid, 'SIGTERM');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
