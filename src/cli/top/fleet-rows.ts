import { qualify, rollupOf, type FleetAgentInfo, type HostStatus, type LiveAgents, type Rollup } from '../../client/index.ts';
import { byAttention } from './rows.ts';

/** One host as the fleet view shows it: its state, its agents in attention order, its rollup. */
export interface HostGroup {
  status: HostStatus;
  /** Stale while the host is not connected: the last known states, never taken for idle. */
  agents: FleetAgentInfo[];
  rollup: Rollup;
}

/**
 * What `corral top --fleet` shows, per host in the fleet's order: each host's status and its live
 * agents (the fleet keeps one LiveAgents per host, src/client/fleet/host-link.ts). A host that is
 * away keeps its last known agents, shown stale. Rows are named `ID@HOST`. Keeps no agents of its own.
 */
export class FleetTopRows {
  private readonly hosts = new Map<string, { status: HostStatus; live: LiveAgents }>();

  constructor(hosts: ReadonlyArray<{ status: HostStatus; live: LiveAgents }>) {
    for (const host of hosts) this.hosts.set(host.status.name, { ...host });
  }

  setStatus(status: HostStatus): void {
    const host = this.hosts.get(status.name);
    if (host) host.status = status;
  }

  groups(): HostGroup[] {
    return [...this.hosts.values()].map(({ status, live }) => {
      const stale = status.state !== 'connected';
      const infos = live.list().sort(byAttention).map((info) => ({ ...info, host: status.name, stale }));
      return { status, agents: infos, rollup: rollupOf(infos) };
    });
  }

  /** The rows in display order, as `ID@HOST`: what the selection moves over. */
  order(): string[] {
    return this.groups().flatMap((group) => group.agents.map((info) => qualify(info.id, group.status.name)));
  }
}
