import type { ProcessObservation, ProcessTree, RejectReason } from './types.ts';

export type BindingCheck = { ok: true } | { ok: false; reason: RejectReason; detail: string };

/**
 * A report carrying its reporter's pid is bound to the pane: the pid must live in the pane's process
 * tree and, while an agent is identified, the nearest agent above the reporter must be that very process.
 * This stops a nested agent, which inherits CORRAL_PANE, from hijacking its parent's pane.
 */
export function checkBinding(
  pid: number,
  tree: ProcessTree,
  process: ProcessObservation,
  retiredGeneration: (agentPid: number) => number | undefined,
): BindingCheck {
  if (!tree.isInPaneTree(pid)) return { ok: false, reason: 'not_in_pane', detail: `pid ${pid} is not in this pane's process tree` };
  const above = tree.nearestAgentAbove(pid);
  if (above !== null && retiredGeneration(above.pid) !== undefined) {
    return { ok: false, reason: 'stale_generation', detail: `pid ${pid} belongs to agent process ${above.pid}, which has ended` };
  }
  if (process.agent === null) return { ok: true };
  if (above === null) {
    return { ok: false, reason: 'not_under_agent', detail: `pid ${pid} is not under the pane's agent ${process.agent}` };
  }
  const sameProcess = process.agentPid !== null ? above.pid === process.agentPid : above.agent === process.agent;
  if (!sameProcess) {
    return { ok: false, reason: 'nested_agent', detail: `pid ${pid} is under ${above.agent} (pid ${above.pid}), not the pane's ${process.agent}` };
  }
  return { ok: true };
}
