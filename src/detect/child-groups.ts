import type { ForegroundProcess, ProcessMember } from '../terminal/types.ts';

/**
 * Best effort, for runtimes that report no foreground process group (some sandboxes): among the
 * descendants of the pane's shell, the newest process group other than the shell's own is taken
 * as the foreground job. A newer background job can be mistaken for it; that is the documented cost.
 */
export function inferForegroundFromChildGroups(shell: ProcessMember, descendants: readonly ProcessMember[]): ForegroundProcess | null {
  const groups = new Map<number, ProcessMember[]>();
  for (const member of descendants) {
    if (member.pgid === shell.pgid || member.pid === shell.pid) continue;
    groups.set(member.pgid, [...(groups.get(member.pgid) ?? []), member]);
  }
  let newest: { pgid: number; members: ProcessMember[] } | null = null;
  for (const [pgid, members] of groups) {
    // Process group ids are the leader's pid; a higher one was created later (pid wrap aside).
    if (!newest || pgid > newest.pgid) newest = { pgid, members };
  }
  if (!newest) return null;
  const leader = newest.members.find((member) => member.pid === newest.pgid) ?? null;
  return { pgid: newest.pgid, leader, members: newest.members.sort((a, b) => a.pid - b.pid) };
}
