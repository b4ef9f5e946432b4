import type { LineageEntry, ProcessTree } from '../../arbiter/index.ts';
import { ancestry, ignoresTtou, readMember, readStat } from '../../terminal/procfs.ts';
import type { AgentIdentifier } from './identifier.ts';

/**
 * The arbiter's view of one pane's process tree, read from /proc at the moment a report arrives,
 * so that binding checks see the processes as they are, not as they were at the last output; and
 * whether the foreground leader is a job-control shell, read when an in-band report is parsed.
 */
export function paneProcessTree(rootPid: number, identify: () => AgentIdentifier): ProcessTree {
  return {
    lineage: (pid) => {
      const up = [pid, ...ancestry(pid)];
      const rootAt = up.indexOf(rootPid);
      if (rootAt < 0) return null;
      const members = up.slice(0, rootAt + 1).map((at) => {
        const stat = readStat(at);
        return stat === null ? null : readMember(stat);
      });
      const identifier = identify();
      return members.map((member, index): LineageEntry => {
        if (member === null) return { pid: up[index]!, agent: null, hinted: null };
        // A hint counts where it was set: a child inherits its parent's, which names no new agent.
        const parentHint = index + 1 < members.length ? (members[index + 1]?.agentHint ?? null) : null;
        const hint = member.agentHint !== null && member.agentHint !== parentHint ? identifier.hint(member.agentHint) : null;
        return { pid: member.pid, agent: identifier.process(member), hinted: hint };
      });
    },
    isJobControlShell: (pid) => ignoresTtou(pid),
  };
}
