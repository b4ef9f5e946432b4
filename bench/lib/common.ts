// Shared pieces of the benchmarks: percentiles, /proc readings, a tmux baseline server, and the
// busy-agent program that redraws a working screen ten times a second.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonClient } from '../../src/cli/client.ts';

export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface Summary {
  n: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

export function summary(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Number(v.toFixed(3));
  return { n: samples.length, medianMs: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1) ?? NaN) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client of the daemon just started on `socket`, once it answers (about 15 s at most). */
export async function connectWhenUp(socket: string): Promise<DaemonClient> {
  for (let i = 0; ; i += 1) {
    try {
      return await DaemonClient.connect(socket);
    } catch {
      if (i > 300) throw new Error('the daemon did not start');
      await sleep(50);
    }
  }
}

export function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User plus system CPU seconds a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Direct children of a process (from /proc/<pid>/task/<pid>/children). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * A daemon and its node helper processes (a pty host, if the daemon has one), never its panes' programs:
 * the processes whose CPU and memory are the daemon's cost.
 */
export function daemonPids(pid: number): number[] {
  return [pid, ...childPids(pid).filter((child) => commOf(child) === 'node' || commOf(child).startsWith('corral'))];
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** CPU share (1.0 = one core) that the given processes used over `ms`. */
export async function cpuShare(pids: () => number[], ms: number): Promise<number> {
  const read = () => pids().reduce((sum, pid) => sum + safeCpu(pid), 0);
  const before = read();
  const start = performance.now();
  await sleep(ms);
  return (read() - before) / ((performance.now() - start) / 1000);
}

function safeCpu(pid: number): number {
  try {
    return cpuSeconds(pid);
  } catch {
    return 0;
  }
}

/** A private tmux server (its own socket, no user config), the baseline of several benchmarks. */
export class Tmux {
  readonly socket = `corral-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private started = false;

  static available(): boolean {
    try {
      execFileSync('tmux', ['-V'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  run(...words: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  }

  /** Starts the server with one window running `command`, at 120x32, with the given history limit. */
  start(command: string, historyLimit = 2000): void {
    this.run('new-session', '-d', '-x', '120', '-y', '32', command);
    this.run('set-option', '-g', 'history-limit', String(historyLimit));
    this.started = true;
  }

  window(command: string): void {
    this.run('new-window', '-d', command);
  }

  get pid(): number {
    return Number(this.run('display-message', '-p', '#{pid}').trim());
  }

  kill(): void {
    if (!this.started) return;
    this.started = false;
    try {
      this.run('kill-server');
    } catch {
      // already gone
    }
  }
}

/** bench/lib/busy-agent.sh: a Claude-like working screen redrawn ten times a second. */
export const BUSY_AGENT = fileURLToPath(new URL('./busy-agent.sh', import.meta.url));

/** One MiB of mixed terminal output: plain text, SGR colours, wide and accented characters. */
export function mixedBlock(): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 1 << 20; i++) {
    const line =
      i % 5 === 0
        ? `\x1b[32m✓\x1b[0m test ${i} passed in \x1b[1m${i % 97}ms\x1b[0m — café 漢字 ok\r\n`
        : `${i.toString().padStart(8, '0')} src/module/file-${i % 13}.ts: lorem ipsum dolor sit amet, consectetur\r\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join(''));
}

export function writeMixedFile(dir: string, megabytes: number): { path: string; bytes: number } {
  const block = mixedBlock();
  const path = join(dir, `mixed-${megabytes}.txt`);
  writeFileSync(path, Buffer.concat(Array.from({ length: megabytes }, () => block)));
  return { path, bytes: block.length * megabytes };
}

export const MiB = 1 << 20;
