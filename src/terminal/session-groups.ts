import { readFileSync } from 'node:fs';
import { isChildSubreaper } from './native.ts';
import { ancestry, childrenOf, parsePidList, readProcessTable, readStat } from './procfs.ts';

/**
 * The process groups of the session led by `sessionId` (a pane's first process, a child of this
 * process), always including `sessionId` itself.
 *
 * A member of the session runs below its leader, or below an orphan of the session: a process whose
 * parent died, which the kernel gave to the nearest child subreaper above or to init: this process
 * when it is a subreaper (the pty host is), else one of its ancestors. So the cost is the pane's own
 * processes plus, per ancestor, one children list and its children's stat; a scan of every process's
 * stat cost 2 ms of CPU per kill with 90 processes here and 11 ms with 390, and is kept only for
 * kernels without children lists. What only the scan would find: a member below a process that forked
 * it, then left the session (setsid) and was orphaned.
 */
export function sessionGroups(sessionId: number): Set<number> {
  const roots = [sessionId];
  for (const reaper of reaperChain()) {
    const children = orphansHeldBy(reaper);
    if (children === null) return sessionGroupsByScan(sessionId);
    for (const child of children) if (readStat(child)?.session === sessionId) roots.push(child);
  }
  const groups = new Set<number>([sessionId]);
  const seen = new Set<number>();
  const queue = roots;
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const stat = readStat(pid);
    if (stat !== null && stat.session === sessionId && stat.pgid > 0) groups.add(stat.pgid);
    // Below a member that left the session (setsid) its children may still be in it: walk on.
    const children = childrenOf(pid);
    if (children === null) return sessionGroupsByScan(sessionId);
    queue.push(...children);
  }
  return groups;
}

/**
 * The children of a possible reaper, where the kernel puts orphans: its first live thread, which is
 * its main thread unless that one has exited (then it shows as a zombie, and every thread is read).
 * Reading one list, not one per thread, matters: init here has 14 threads.
 */
function orphansHeldBy(reaper: number): number[] | null {
  let state = '';
  try {
    const stat = readFileSync(`/proc/${reaper}/task/${reaper}/stat`, 'utf8');
    state = stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return []; // gone: what it held went further up the chain
  }
  if (state === 'Z' || state === 'X') return childrenOf(reaper);
  try {
    return parsePidList(readFileSync(`/proc/${reaper}/task/${reaper}/children`, 'utf8'));
  } catch {
    return childrenOf(reaper); // no children lists here (null), or gone meanwhile ([])
  }
}

let ancestors: number[] = [];
/**
 * This process when it is a subreaper, and its ancestors, read again only when its parent changed.
 * The chain gains no member: when one dies, what it held goes to a subreaper or init above it,
 * already in the chain. A dead member's pid, reused, at worst adds processes to look at.
 */
function reaperChain(): number[] {
  if (ancestors[0] !== process.ppid) ancestors = ancestry(process.pid);
  return isChildSubreaper() ? [process.pid, ...ancestors] : ancestors;
}

/** The same from every process's stat on the machine. */
export function sessionGroupsByScan(sessionId: number): Set<number> {
  const groups = new Set<number>([sessionId]);
  for (const stat of readProcessTable().values()) {
    if (stat.session === sessionId && stat.pgid > 0) groups.add(stat.pgid);
  }
  return groups;
}
