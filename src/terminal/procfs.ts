import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import type { ForegroundProcess, ProcessMember } from './types.ts';

/** Whether `pid` names a live process (one of another user's counts: signalling it is refused, not failed). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The fields of `/proc/<pid>/stat` we use. */
export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  pgid: number;
  session: number;
  tpgid: number;
}

/** Parses a stat line; `comm` sits in parentheses and may itself hold spaces and `)`. */
export function parseStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  // After comm: state(3) ppid(4) pgrp(5) session(6) tty_nr(7) tpgid(8)
  const rest = text.slice(close + 2).split(' ');
  const pid = Number(text.slice(0, open).trim());
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  const session = Number(rest[3]);
  const tpgid = Number(rest[5]);
  if (![pid, ppid, pgid, session, tpgid].every(Number.isInteger)) return null;
  return { pid, comm: text.slice(open + 1, close), ppid, pgid, session, tpgid };
}

export function readStat(pid: number): ProcStat | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // the process is gone
  }
}

/** The foreground process group of the terminal `pid` is attached to, or null. */
export function readTpgid(pid: number): number | null {
  const stat = readStat(pid);
  return stat === null || stat.tpgid <= 0 ? null : stat.tpgid;
}

/** Every live process's stat, by pid. */
export function readProcessTable(): Map<number, ProcStat> {
  const table = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) table.set(stat.pid, stat);
  }
  return table;
}

/** The pids below `rootPid` (not including it), from a process table's ppid links. */
export function descendants(rootPid: number, table: Map<number, ProcStat> = readProcessTable()): number[] {
  const children = new Map<number, number[]>();
  for (const stat of table.values()) {
    const list = children.get(stat.ppid);
    if (list) list.push(stat.pid);
    else children.set(stat.ppid, [stat.pid]);
  }
  const found: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * The direct children of `pid` from the kernel's per-thread children lists, without a scan of every
 * process on the machine; [] when the process is gone, null where the kernel has no such lists.
 */
export function childrenOf(pid: number): number[] | null {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // gone meanwhile
  }
  const found: number[] = [];
  for (const task of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && task === String(pid) && !childrenListsExist()) return null;
      continue;
    }
    found.push(...parsePidList(text));
  }
  return found;
}

/** The pids of a children list (`/proc/<pid>/task/<tid>/children`: pids separated by spaces). */
export function parsePidList(text: string): number[] {
  const pids: number[] = [];
  for (const word of text.split(/\s+/)) {
    const pid = Number(word);
    if (word !== '' && Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

/**
 * The pids below `rootPid` from the kernel's per-thread children lists, without a scan of every process
 * on the machine (which was most of the cost of a foreground read on a busy host); null where the
 * kernel has no such lists.
 */
export function descendantsByChildren(rootPid: number): number[] | null {
  const found: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const children = childrenOf(queue.shift() as number);
    if (children === null) return null;
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

let childrenLists: boolean | null = null;
function childrenListsExist(): boolean {
  if (childrenLists === null) {
    try {
      readFileSync(`/proc/${process.pid}/task/${process.pid}/children`);
      childrenLists = true;
    } catch {
      childrenLists = false;
    }
  }
  return childrenLists;
}

/** The chain of parents of `pid`, nearest first, ending at pid 1 (or where the chain breaks). */
export function ancestry(pid: number): number[] {
  const chain: number[] = [];
  const seen = new Set<number>([pid]);
  let stat = readStat(pid);
  while (stat !== null && stat.ppid > 0 && !seen.has(stat.ppid)) {
    chain.push(stat.ppid);
    seen.add(stat.ppid);
    stat = readStat(stat.ppid);
  }
  return chain;
}

/** Whether `pid` is `ancestorPid` or runs below it in the process tree. */
export function isDescendant(pid: number, ancestorPid: number): boolean {
  return pid === ancestorPid || ancestry(pid).includes(ancestorPid);
}

/** SIGTTOU's bit in the masks of `/proc/<pid>/status` (bit n-1 stands for signal n). */
const SIGTTOU_BIT = 1n << 21n;

/**
 * Whether the process ignores SIGTTOU, as a job-control shell does (bash, dash, zsh and fish alike) to
 * give the terminal to its jobs and take it back; it resets the signal for the jobs it starts.
 * False when the process is gone or its status cannot be read.
 */
export function ignoresTtou(pid: number): boolean {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return false;
  }
  const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(text)?.[1];
  return mask !== undefined && (BigInt(`0x${mask}`) & SIGTTOU_BIT) !== 0n;
}

export function readArgv(pid: number): string[] {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const parts = raw.split('\0');
    if (parts[parts.length - 1] === '') parts.pop();
    return parts;
  } catch {
    return [];
  }
}

function readExe(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null; // another user's process, a kernel thread, or gone
  }
}

/** CORRAL_AGENT from the process's environment (as it was at exec), when readable. */
function readAgentHint(pid: number): string | null {
  try {
    for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
      if (entry.startsWith('CORRAL_AGENT=')) return entry.slice('CORRAL_AGENT='.length);
    }
  } catch {
    // unreadable: another user's process or gone
  }
  return null;
}

export function readMember(stat: ProcStat): ProcessMember {
  return {
    pid: stat.pid,
    ppid: stat.ppid,
    pgid: stat.pgid,
    comm: stat.comm,
    exe: readExe(stat.pid),
    argv: readArgv(stat.pid),
    agentHint: readAgentHint(stat.pid),
  };
}

/**
 * The foreground process group of the terminal that `shellPid` (the pane's first process) runs
 * on: its members among the shell and its descendants, and the leader when it still lives.
 * `knownBelow` is descendantsByChildren(shellPid) read just before, when the caller has it.
 */
export function readForeground(shellPid: number, knownBelow?: number[] | null): ForegroundProcess | null {
  const tpgid = readTpgid(shellPid);
  if (tpgid === null) return null;
  // The caller may have just read the children lists (to see whether anything changed): use them.
  const below = knownBelow === undefined ? descendantsByChildren(shellPid) : knownBelow;
  const table = below === null ? readProcessTable() : null;
  const candidates = [shellPid, ...(below ?? descendants(shellPid, table!))];
  const members: ProcessMember[] = [];
  for (const pid of candidates) {
    const stat = table ? table.get(pid) : readStat(pid);
    if (stat && stat.pgid === tpgid) members.push(readMember(stat));
  }
  if (members.length === 0) return null;
  members.sort((a, b) => a.pid - b.pid);
  return { pgid: tpgid, leader: members.find((m) => m.pid === tpgid) ?? null, members };
}
