// Readings of a process from /proc: alive or not, memory, CPU, descriptors, children.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { sleep } from './wait.ts';

/** A process that exists and is not a zombie (a reparented child may wait a while to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Resident memory in KiB; NaN for a process that has none (a zombie). */
export function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : NaN;
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
  const before = cpuSecondsOf(pids());
  const start = performance.now();
  await sleep(ms);
  return (cpuSecondsOf(pids()) - before) / ((performance.now() - start) / 1000);
}

/** CPU seconds the given processes have used so far; one that went away counts 0. */
export function cpuSecondsOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + safeCpu(pid), 0);
}

function safeCpu(pid: number): number {
  try {
    return cpuSeconds(pid);
  } catch {
    return 0;
  }
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
