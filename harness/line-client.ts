// Shared pieces of the reliability suite: a line client that tells answers from notifications, process
// and memory readings from /proc, and a report line per figure (figures are reported, never asserted
// as timings; tests assert counts and bounds).
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, readlinkSync, readSync, rmSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { makeTempDir, startDaemon, type DaemonProcess } from './daemon.ts';

export function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function summary(samples: number[]): { n: number; medianMs: number; p99Ms: number; maxMs: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Number(v.toFixed(2));
  return { n: sorted.length, medianMs: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1) ?? NaN) };
}

/** One line of figures in the test output, for the closing note and bench/RESULTS.md. */
export function report(what: string, figures: Record<string, unknown>): void {
  console.log(`# ${what}: ${JSON.stringify(figures)}`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : NaN;
}

export function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export function fdTargets(pid: number): string[] {
  return readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      return '?';
    }
  });
}

/** Every process below `pid`, with its state letter (Z for a zombie). */
export function descendantsOf(pid: number): { pid: number; state: string; comm: string }[] {
  const found: { pid: number; state: string; comm: string }[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      let text = '';
      try {
        text = readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const word of text.split(/\s+/)) {
        if (!word) continue;
        const child = Number(word);
        try {
          const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
          const close = stat.lastIndexOf(')');
          found.push({ pid: child, state: stat.slice(close + 2, close + 3), comm: stat.slice(stat.indexOf('(') + 1, close) });
        } catch {
          continue;
        }
        queue.push(child);
      }
    }
  }
  return found;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A socket client reading NDJSON lines, telling answers (lines with an id member) from notifications. */
export class LineClient {
  private buffer = '';
  private readonly answers: unknown[] = [];
  private wake: (() => void) | null = null;
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.buffer += text;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        try {
          const message = JSON.parse(line) as Record<string, unknown> | unknown[];
          // A batch is answered with an array of replies; a notification has no id.
          if (Array.isArray(message) || 'id' in message) this.answers.push(message);
        } catch {
          this.answers.push({ unparsable: line });
        }
      }
      this.wake?.();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static connect(path: string): Promise<LineClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('connect', () => resolve(new LineClient(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** The next answer, or null if none came in time or the socket closed first. */
  async nextAnswer(timeoutMs: number): Promise<Record<string, unknown> | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.answers.length === 0) {
      if (this.closed || Date.now() >= deadline) return null;
      await this.until(deadline);
    }
    return this.answers.shift() as Record<string, unknown>;
  }

  async closedWithin(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await this.until(deadline);
    return this.closed;
  }

  private until(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }
}

/** One request on `client`; an answer that never comes (a bound, not a timing) reads as the error no_answer. */
export async function request(client: LineClient, id: number, method: string, params: unknown): Promise<any> {
  client.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  return (await client.nextAnswer(60_000)) ?? { error: { data: { code: 'no_answer' } } };
}

/** Requests on `client` one at a time, numbered in turn. */
export function numberedCaller(client: LineClient): (method: string, params: unknown) => Promise<any> {
  let id = 0;
  return (method, params) => request(client, ++id, method, params);
}

/** Like numberedCaller, but gives each call's result and throws on its error (for probes and benches). */
export function resultCaller(client: LineClient): (method: string, params: unknown) => Promise<any> {
  const call = numberedCaller(client);
  return async (method, params) => {
    const answer = await call(method, params);
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
}

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
