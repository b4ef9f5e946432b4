import { qualify, rollupOf, type FleetAgentInfo, type HostStatus, type Rollup } from '../../client/index.ts';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { byAttention } from './rows.ts';

/** One host as the fleet view shows it: its state, its agents in attention order, its rollup. */
export interface HostGroup {
  status: HostStatus;
  /** Stale while the host is not connected: the last known states, never taken for idle. */
  agents: FleetAgentInfo[];
  rollup: Rollup;
}

/**
 * The agents `corral top --fleet` shows, per host in the fleet's order. Pure: fed each host's status,
 * its list when it is connected, and each fresh AgentInfo. A host that is away keeps its last known
 * agents, shown stale; its list replaces them when it is back. Rows are named `ID@HOST`.
 */
export class FleetTopRows {
  private readonly hosts = new Map<string, { status: HostStatus; agents: Map<string, AgentInfo> }>();

  constructor(statuses: readonly HostStatus[]) {
    for (const status of statuses) this.hosts.set(status.name, { status, agents: new Map() });
  }

  setStatus(status: HostStatus): void {
    const host = this.hosts.get(status.name);
    if (host) host.status = status;
  }

  /** The host's whole list, taken while it is connected. */
  reset(hostName: string, agents: readonly AgentInfo[]): void {
    const host = this.hosts.get(hostName);
    if (!host) return;
    host.agents.clear();
    for (const info of agents) this.update(hostName, info);
  }

  update(hostName: string, info: AgentInfo): void {
    const agents = this.hosts.get(hostName)?.agents;
    if (!agents) return;
    if (info.agent === null) agents.delete(info.id);
    else agents.set(info.id, info);
  }

  remove(hostName: string, paneId: string): void {
    this.hosts.get(hostName)?.agents.delete(paneId);
  }

  groups(): HostGroup[] {
    return [...this.hosts.values()].map(({ status, agents }) => {
      const stale = status.state !== 'connected';
      const infos = [...agents.values()].sort(byAttention).map((info) => ({ ...info, host: status.name, stale }));
      return { status, agents: infos, rollup: rollupOf(infos) };
    });
  }

  /** The rows in display order, as `ID@HOST`: what the selection moves over. */
  order(): string[] {
    return this.groups().flatMap((group) => group.agents.map((info) => qualify(info.id, group.status.name)));
  }
}
