import { sessionGroups } from './session-groups.ts';

/** How long processes get after SIGHUP before SIGKILL. */
export const KILL_GRACE_MS = 2000;

/**
 * Sends `signal` to every process group in the session led by `sessionId` (the pane's first
 * process). Going by session, not by the leader's group, also reaches background jobs, programs that
 * made a group of their own, and children that were re-parented after their parent died, so a pane
 * leaves no orphans. Returns the groups signalled.
 */
export function signalSession(sessionId: number, signal: NodeJS.Signals): number[] {
  const groups = sessionGroups(sessionId);
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
