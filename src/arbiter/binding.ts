import type { LineageEntry, ProcessObservation, ProcessTree, RejectReason } from './types.ts';

export type BindingCheck = { ok: true } | { ok: false; reason: RejectReason; detail: string };

/**
 * A report is bound to the pane through its reporter's pid, which the daemon takes from the kernel
 * (the socket's peer credentials). The pid must live in the pane's process tree and, while an agent is
 * identified, run under that agent's own process with no other agent in between. This stops a nested
 * agent, which inherits CORRAL_PANE, from taking over its parent's pane.
 *
 * The pane's agent may have been identified through a wrapper (`CORRAL_AGENT=claude fence -- claude`)
 * or a hint on a program that no manifest names: then the agent's own process is the first process
 * below it that runs that agent, and the reporter may be anywhere under it. Processes of the same agent
 * directly chained below it (a launcher and its runtime) count as the same agent.
 */
export function checkBinding(
  pid: number,
  tree: ProcessTree,
  process: ProcessObservation,
  retiredGeneration: (agentPid: number) => number | undefined,
): BindingCheck {
  const chain = tree.lineage(pid);
  if (chain === null) return { ok: false, reason: 'not_in_pane', detail: `pid ${pid} is not in this pane's process tree` };
  const nearest = chain.find(isAgent);
  if (nearest !== undefined && retiredGeneration(nearest.pid) !== undefined) {
    return { ok: false, reason: 'stale_generation', detail: `pid ${pid} belongs to agent process ${nearest.pid}, which has ended` };
  }
  if (process.agent === null) return { ok: true };
  const agentAt = process.agentPid === null ? -1 : chain.findIndex((entry) => entry.pid === process.agentPid);
  if (agentAt < 0) {
    // Identity without a known process (unobservable panes): the nearest agent above decides.
    if (process.agentPid === null && nearest !== undefined && agentOf(nearest) === process.agent) return { ok: true };
    return { ok: false, reason: 'not_under_agent', detail: `pid ${pid} is not under the pane's agent ${process.agent}` };
  }
  const below = chain.slice(0, agentAt).reverse(); // from just under the agent down to the reporter
  let from = 0;
  if (chain[agentAt]!.agent !== process.agent) {
    const own = below.findIndex((entry) => entry.agent === process.agent);
    if (own >= 0) {
      const between = below.slice(0, own).find(isAgent);
      if (between) return nested(pid, between, process.agent);
      from = own + 1;
    }
  }
  while (from < below.length && below[from]!.agent === process.agent && below[from]!.hinted === null) from += 1;
  const other = below.slice(from).find(isAgent);
  return other ? nested(pid, other, process.agent) : { ok: true };
}

function isAgent(entry: LineageEntry): boolean {
  return entry.agent !== null || entry.hinted !== null;
}

function agentOf(entry: LineageEntry): string | null {
  return entry.agent ?? entry.hinted;
}

function nested(pid: number, entry: LineageEntry, paneAgent: string): BindingCheck {
  return {
    ok: false,
    reason: 'nested_agent',
    detail: `pid ${pid} is under ${agentOf(entry)} (pid ${entry.pid}), an agent nested in the pane's ${paneAgent}`,
  };
}
