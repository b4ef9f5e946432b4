import { connectFleet, fleetHosts, LastSeenFile, lastSeenPath, loadFleetConfig, shortReason, type Fleet, type FleetAgentList, type HostRollup } from '../client/index.ts';
import { formatAge } from './commands/format.ts';
import { printText } from './output.ts';

/** Whether a command spans every host: --fleet / --no-fleet, else `[fleet] by_default` of config.toml. */
export function spansFleet(flag: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  try {
    return loadFleetConfig().byDefault;
  } catch (error) {
    // A broken config must not stop a command on this machine; the fleet commands say what is wrong.
    process.stderr.write(`corral: ${(error as Error).message}; running on this machine only\n`);
    return false;
  }
}

/**
 * This machine and every `[[hosts]]` host, each tried once; one that is away shows offline, never fails the command,
 * with the agents an earlier command last saw there (`$XDG_STATE_HOME/corral/fleet-seen-*.json`), stale.
 * A host's daemon of another protocol major is warned about on stderr, or to `onWarning` (a full-screen view).
 */
export async function withFleet<T>(socket: string, use: (fleet: Fleet) => Promise<T>, options: { onWarning?: (message: string) => void; live?: boolean } = {}): Promise<T> {
  const warn = options.onWarning ?? ((message: string) => void process.stderr.write(`corral: ${message}\n`));
  // A one-shot command tries each host once; a live view (`live`) keeps reaching for the hosts away.
  const fleet = await connectFleet(fleetHosts({ socket }), { onWarning: warn, lastSeen: new LastSeenFile(lastSeenPath(socket)), once: options.live !== true });
  try {
    return await use(fleet);
  } finally {
    fleet.close();
  }
}

/**
 * `connected`, or `offline 2m (unreachable)`, as a host's state reads in a table: why in a word or two
 * (src/client/fleet/short-reason.ts), so a row stays one line; ssh's own words are in `--json` (`reason`).
 */
export function hostStateText(host: Pick<HostRollup, 'state' | 'since' | 'reason' | 'code'>): string {
  if (host.state === 'connected') return 'connected';
  const why = shortReason(host.code, host.reason);
  return `${host.state} ${formatAge(Date.now() - host.since)}${why !== null ? ` (${why})` : ''}`;
}

/** `stale, last seen 2m ago`: an agent kept from a host that is away, and when the host was last seen. */
export function staleText(lastSeen: number | null | undefined): string {
  return lastSeen === null || lastSeen === undefined ? 'stale' : `stale, last seen ${formatAge(Date.now() - lastSeen)} ago`;
}

/** The rollup lines under a fleet list: one per host, then the fleet with its one "needs you" count. */
export function printRollups(list: FleetAgentList): void {
  for (const host of list.hosts) {
    const counts = Object.entries(host.counts).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${state}`);
    const stale = host.stale > 0 ? `, ${host.stale} ${staleText(host.lastSeen)}` : '';
    printText(`${host.name}: ${host.state === 'connected' ? '' : `${hostStateText(host)}; `}${counts.join(', ') || 'no agents'}${stale}`);
  }
  printText(`fleet: ${list.agents.length} agents on ${list.hosts.length} hosts, ${list.fleet.needsYou} need you`);
}
