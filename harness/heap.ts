// The live heap of a daemon (and its pty host): a daemon started to write heap snapshots on a signal,
// and a census of the objects in one.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, startDaemon, type DaemonProcess } from './daemon.ts';
import { sleep } from './wait.ts';

export interface HeapDaemon {
  daemon: DaemonProcess;
  /** Where the daemon (and its pty host, which inherits its environment) writes heap snapshots. */
  heapDir: string;
}

/** A daemon whose live heap (and its pty host's) heapCensus can read; `args` go to `corral daemon`. */
export async function startHeapDaemon(dir: string = makeTempDir(), args: string[] = []): Promise<HeapDaemon> {
  const heapDir = join(dir, 'heap');
  mkdirSync(heapDir);
  const daemon = await startDaemon({ dir, env: heapSnapshotOptions(heapDir), args });
  return { daemon, heapDir };
}

/** Node options that make a daemon write a heap snapshot into `dir` on SIGUSR2 (see heapCensus). */
export function heapSnapshotOptions(dir: string): NodeJS.ProcessEnv {
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`.trim() };
}

export interface HeapCensus {
  /** Bytes of every object alive after a full collection (a snapshot collects garbage first). */
  liveBytes: number;
  /** Objects alive, by constructor name. */
  counts: Map<string, number>;
  /** Bytes alive by the snapshot's node type (object, string, array, code, closure, hidden, ...). */
  bytesByType: Map<string, number>;
}

/**
 * The live heap of a process started with heapSnapshotOptions(dir): asks it for a snapshot, waits for
 * the file to be whole, counts objects by constructor and removes the file.
 */
export async function heapCensus(pid: number, dir: string, timeoutMs = 120_000): Promise<HeapCensus> {
  const seen = new Set(readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`no heap snapshot from ${pid} in ${timeoutMs} ms`);
    await sleep(200);
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !seen.has(f));
    if (!file || !endsWhole(`${dir}/${file}`)) continue;
    // The file is written as the snapshot is serialised: whole once it parses.
    try {
      const parsed = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
      rmSync(`${dir}/${file}`);
      return census(parsed);
    } catch {
      // not whole yet
    }
  }
}

/** Whether a snapshot file ends as a whole one does (its strings array, then the object, closed): cheaper than parsing a partial one. */
function endsWhole(path: string): boolean {
  const size = statSync(path).size;
  if (size < 2) return false;
  const tail = Buffer.alloc(Math.min(16, size));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, tail, 0, tail.length, size - tail.length);
  } finally {
    closeSync(fd);
  }
  return /\]\s*\}\s*$/.test(tail.toString('latin1'));
}

function census(snap: { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] }): HeapCensus {
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const counts = new Map<string, number>();
  const bytesByType = new Map<string, number>();
  let liveBytes = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    liveBytes += snap.nodes[i + sizeAt]!;
    bytesByType.set(type, (bytesByType.get(type) ?? 0) + snap.nodes[i + sizeAt]!);
    if (type !== 'object') continue;
    const name = snap.strings[snap.nodes[i + nameAt]!]!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return { liveBytes, counts, bytesByType };
}
