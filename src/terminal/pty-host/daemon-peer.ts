import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { socketPeer } from '../socket-peer.ts';
import { lockHoldingPid } from './daemon-lock.ts';
import type { HostRefusal } from './wire.ts';

export type PeerVerdict = { daemon: true; pid: number } | { daemon: false; reason: HostRefusal; message: string };

/**
 * Whether the peer of a connection to the host may be its daemon, from what the kernel says, never
 * from what the peer says: its credentials (SO_PEERCRED, as of its connect) must name a process of
 * this user outside the host's own process tree (every pane's process and what they fork, which
 * the host keeps as a child subreaper) that holds the daemon's lock at `lockPath`.
 */
export function judgePeer(socket: Socket, lockPath: string): PeerVerdict {
  const peer = socketPeer(socket);
  if (peer === null) return { daemon: false, reason: 'peer_unknown', message: 'the kernel gave no credentials for this connection' };
  const uid = process.getuid?.() ?? peer.uid;
  if (peer.uid !== uid) return { daemon: false, reason: 'not_lock_holder', message: `pid ${peer.pid} runs as uid ${peer.uid}, not as this pty host's uid ${uid}` };
  const place = placeInTree(peer.pid, process.pid);
  if (place === 'below') {
    return { daemon: false, reason: 'pane_process', message: `pid ${peer.pid} runs inside a pane of this pty host (pid ${process.pid}); a pane's processes never steer the host (start the daemon outside every pane)` };
  }
  if (place === 'unknown') return { daemon: false, reason: 'peer_unknown', message: `pid ${peer.pid}'s place in the process tree cannot be read` };
  const holder = lockHoldingPid(lockPath);
  if (holder !== peer.pid) {
    const held = holder === null ? 'no live daemon holds it' : `pid ${holder} holds it`;
    return { daemon: false, reason: 'not_lock_holder', message: `pid ${peer.pid} does not hold the daemon's lock ${lockPath} (${held})` };
  }
  return { daemon: true, pid: peer.pid };
}

/** A walk up the tree that keeps breaking (parents dying as it reads) is given up after this many. */
const TREE_WALKS = 5;

/**
 * Whether `pid` runs below `root`, walking its parents in /proc. A walk broken by a parent that exited
 * meanwhile (its children went to `root`, a subreaper, or further up) or whose pid was reused (the
 * parent started after its child) is walked again, so that no dying parent hides a descendant.
 */
export function placeInTree(pid: number, root: number): 'below' | 'outside' | 'unknown' {
  if (pid === root) return 'below';
  for (let walk = 0; walk < TREE_WALKS; walk += 1) {
    let node = parentAndStart(pid);
    if (node === null) return 'unknown';
    const seen = new Set<number>([pid]);
    for (;;) {
      if (node.ppid === root) return 'below';
      if (node.ppid <= 0) return 'outside'; // reached init (or the top of this pid namespace)
      const parent = parentAndStart(node.ppid);
      if (parent === null || parent.start > node.start || seen.has(node.ppid)) break;
      seen.add(node.ppid);
      node = parent;
    }
  }
  return 'unknown';
}

/** A process's parent and start time (clock ticks since boot) from /proc/PID/stat. */
function parentAndStart(pid: number): { ppid: number; start: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // After comm, which may hold spaces and ')': state(3) ppid(4) ... starttime(22).
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  const start = Number(fields[19]);
  return Number.isInteger(ppid) && Number.isFinite(start) ? { ppid, start } : null;
}
