import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { ROLLUP_ORDER, type WorkspaceRollup } from '../../protocol/methods/agent-query.ts';
import { AGENT_STATES, type AgentState } from '../../protocol/states.ts';
import type { Static } from '@sinclair/typebox';
import type { AGENT_LIST_FILTER } from '../../protocol/methods/agent-query.ts';
import { namePattern } from '../../protocol/pane-target.ts';

type AgentListFilter = Static<typeof AGENT_LIST_FILTER>;

export { namePattern };

/** Every given field must hold: `agent` and `workspace` exactly, `state` literally (idle does not take done), `name` as a pattern. */
export function filterAgents(infos: AgentInfo[], filter: AgentListFilter): AgentInfo[] {
  const name = filter.name !== undefined ? namePattern(filter.name) : null;
  return infos.filter(
    (info) =>
      (filter.agent === undefined || info.agent === filter.agent) &&
      (filter.state === undefined || filter.state.includes(info.state)) &&
      (filter.workspace === undefined || info.workspace === filter.workspace) &&
      (name === null || (info.name !== null && name.test(info.name))),
  );
}

/** Per workspace, the most pressing state among its agents (panes without an agent are not counted). */
export function rollup(infos: AgentInfo[]): WorkspaceRollup[] {
  const byWorkspace = new Map<string, Record<AgentState, number>>();
  for (const info of infos) {
    if (info.agent === null) continue;
    const counts = byWorkspace.get(info.workspace) ?? (Object.fromEntries(AGENT_STATES.map((s) => [s, 0])) as Record<AgentState, number>);
    counts[info.state] += 1;
    byWorkspace.set(info.workspace, counts);
  }
  return [...byWorkspace].map(([workspace, counts]) => ({
    workspace,
    state: ROLLUP_ORDER.find((state) => counts[state] > 0) ?? 'unknown',
    counts,
  }));
}
