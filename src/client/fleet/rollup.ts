import { AGENT_STATES, type AgentState } from '../../protocol/states.ts';
import type { FleetAgentInfo, HostStatus } from './host-link.ts';
import { needsYou } from '../../protocol/states.ts';

/** Counts by state and the one number a person acts on, as every view counts it (`needsYou`). */
export interface Rollup {
  counts: Record<AgentState, number>;
  needsYou: number;
  /** Agents whose state is their host's last known (the host is away). */
  stale: number;
}

export type HostRollup = Rollup & Pick<HostStatus, 'name' | 'state' | 'since' | 'reason' | 'code' | 'lastSeen'>;

export function rollupOf(agents: readonly FleetAgentInfo[]): Rollup {
  const counts = Object.fromEntries(AGENT_STATES.map((state) => [state, 0])) as Record<AgentState, number>;
  let needs = 0;
  let stale = 0;
  for (const agent of agents) {
    counts[agent.state] += 1;
    if (needsYou(agent.state)) needs += 1;
    if (agent.stale) stale += 1;
  }
  return { counts, needsYou: needs, stale };
}
