import type { ProcessTree } from '../../arbiter/index.ts';
import { ancestry, isDescendant, readMember, readStat } from '../../terminal/proc-identity.ts';
import type { AgentIdentifier } from './identifier.ts';

/**
 * The arbiter's view of one pane's process tree, read from /proc at the moment a report arrives,
 * so that binding checks see the processes as they are, not as they were at the last output.
 */
export function paneProcessTree(rootPid: number, identify: () => AgentIdentifier): ProcessTree {
  return {
    isInPaneTree: (pid) => isDescendant(pid, rootPid),
    nearestAgentAbove: (pid) => {
      for (const candidate of [pid, ...ancestry(pid)]) {
        const stat = readStat(candidate);
        if (stat === null) continue;
        const agent = identify().process(readMember(stat));
        if (agent !== null) return { agent, pid: candidate };
        if (candidate === rootPid) break;
      }
      return null;
    },
  };
}
