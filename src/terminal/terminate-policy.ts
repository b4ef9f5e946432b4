import { readProcessTable } from './proc-identity.ts';

/** How long processes get after SIGHUP before SIGKILL. */
export const KILL_GRACE_MS = 2000;

/**
 * Sends `signal` to every process group in the session led by `sessionId` (the pane's first
 * process). Scanning by session also reaches background jobs and children that were re-parented
 * after their parent died, so a pane leaves no orphans. Returns the groups signalled.
 */
export function signalSession(sessionId: number, signal: NodeJS.Signals): number[] {
  const groups = new Set<number>([sessionId]);
  for (const stat of readProcessTable().values()) {
    if (stat.session === sessionId && stat.pgid > 0) groups.add(stat.pgid);
  }
  const signalled: number[] = [];
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
      signalled.push(pgid);
    } catch {
      // ESRCH: the group is already gone
    }
  }
  return signalled;
}
