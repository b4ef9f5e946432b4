import type { Disposable } from '../../base/disposable.ts';
import { Emitter } from '../../base/emitter.ts';
import { CorralError } from '../../protocol/errors.ts';
import { LOCAL_HOST, type HostSpec } from '../../protocol/fleet-config.ts';
import type { ParamsOf, ResultOf } from '../../protocol/method.ts';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { matchesEventFilter, parseEventFilter } from '../../protocol/methods/events.ts';
import type { MethodMap, MethodName } from '../../protocol/methods/index.ts';
import { namePattern } from '../../protocol/pane-target.ts';
import { resolveSocketPath } from '../../protocol/socket-path.ts';
import type { BackoffOptions } from '../backoff.ts';
import { ClientError } from '../connection.ts';
import { socketEndpoint, type Endpoint } from '../endpoint.ts';
import { waitAcrossHosts, type FleetWaitOptions, type FleetWaitParams, type FleetWaitResult } from './fleet-wait.ts';
import { HostLink, type FleetAgentInfo, type FleetEvent, type HostCursor, type HostStatus } from './host-link.ts';
import { splitHostTarget } from './host-target.ts';
import { localHost, loadHosts } from './hosts.ts';
import type { LastSeenFile, SeenHost } from './last-seen.ts';
import { rollupOf, type HostRollup, type Rollup } from './rollup.ts';
import { sshEndpoint } from './ssh-endpoint.ts';

export interface FleetOptions {
  /** Back-off between attempts to reach a host that is away (default: 100 ms doubling to 5 s). */
  reconnect?: BackoffOptions;
  /**
   * Each host is tried once, and one that is away (or goes) stays offline: a one-shot command prints
   * what it found, and a host that a retry had put back to connecting meanwhile read as neither.
   */
  once?: boolean;
  /** Resume each host's event stream after these cursors (`fleet.cursor()` of an earlier fleet). */
  since?: Record<string, HostCursor>;
  /** For ssh: $CORRAL_SSH is read from here (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Told about a host whose daemon speaks another protocol major (default: `process.emitWarning`). */
  onWarning?: (message: string) => void;
  /**
   * Where the last known agents of each host are kept between commands (last-seen.ts): a host away
   * from the start shows them stale, and each `list()` writes what it saw of the hosts connected.
   */
  lastSeen?: LastSeenFile;
}

/** `agent.list` over the fleet: every host's agents (the stale ones of hosts away), a rollup per host and one for all. */
export interface FleetAgentList {
  agents: FleetAgentInfo[];
  hosts: HostRollup[];
  fleet: Rollup;
  /** Each connected host's state_change_seq when its list was taken, for `wait` as `sinceSeq`. */
  seq: Record<string, number>;
}

type ListParams = ParamsOf<MethodMap['agent.list']>;
type CallArgs<N extends MethodName> = {} extends ParamsOf<MethodMap[N]> ? [params?: ParamsOf<MethodMap[N]>] : [params: ParamsOf<MethodMap[N]>];

/** How a host is reached: this machine's socket, or ssh. */
export function endpointFor(spec: HostSpec, env: NodeJS.ProcessEnv = process.env): Endpoint {
  return spec.ssh === null ? socketEndpoint(resolveSocketPath(spec.socket ?? undefined)) : sshEndpoint(spec, env);
}

/** The config's hosts with this machine first (as `local`, the daemon at `socket`). */
export function fleetHosts(options: { socket?: string; configPath?: string } = {}): HostSpec[] {
  return [localHost(options.socket ?? null), ...loadHosts(options.configPath)];
}

/** Whether a stale agent (kept from a host that is away) passes an `agent.list` filter, judged here as the daemon would. */
function passes(info: AgentInfo, filter: ListParams['filter']): boolean {
  if (!filter) return true;
  if (filter.agent !== undefined && info.agent !== filter.agent) return false;
  if (filter.state !== undefined && !filter.state.includes(info.state)) return false;
  if (filter.workspace !== undefined && info.workspace !== filter.workspace) return false;
  if (filter.name !== undefined && !(info.name !== null && namePattern(filter.name).test(info.name))) return false;
  return true;
}

/**
 * Many daemons as one (docs/fleet.md): one `HostLink` per host, each with its own connection, cursor
 * and back-off, so a host that is away never holds up the others. The calls are the single client's,
 * with targets qualified by host (`api@box1`; no host: this machine), plus a fleet-wide list, wait
 * and merged event stream.
 */
export class Fleet implements Disposable {
  private readonly links = new Map<string, HostLink>();
  private readonly hostEmitter = new Emitter<HostStatus>();
  private readonly eventEmitter = new Emitter<FleetEvent>();
  private closed = false;
  private readonly lastSeen: LastSeenFile | undefined;
  /** Told each time a host changes state (connecting, connected, offline). */
  readonly onHostChange = this.hostEmitter.event;

  constructor(hosts: readonly HostSpec[], options: FleetOptions = {}) {
    const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, { code: 'CORRAL_PROTOCOL' }));
    this.lastSeen = options.lastSeen;
    const seen = options.lastSeen?.read() ?? new Map<string, SeenHost>();
    for (const spec of hosts) {
      if (this.links.has(spec.name)) throw new CorralError('invalid_params', `two hosts of the fleet are named "${spec.name}"`, { field: 'hosts' });
      const endpoint = endpointFor(spec, options.env);
      const since = options.since?.[spec.name];
      const kept = seen.get(spec.name);
      const known = kept && kept.ssh === spec.ssh ? { seen: kept } : {};
      const link = new HostLink(spec, endpoint, { ...(options.reconnect ? { backoff: options.reconnect } : {}), once: options.once === true, ...(since ? { since } : {}), ...known, warn });
      link.onStatus((status) => this.hostEmitter.fire(status));
      link.onEvent((event) => this.eventEmitter.fire(event));
      this.links.set(spec.name, link);
    }
  }

  /** Settles once every host was tried once (reached or not). */
  async ready(): Promise<void> {
    await Promise.all([...this.links.values()].map((link) => link.ready));
  }

  hosts(): HostStatus[] {
    return [...this.links.values()].map((link) => link.status());
  }

  /** The host's link, or `host_not_found` listing the fleet's hosts. */
  host(name: string): HostLink {
    const link = this.links.get(name);
    if (!link) throw new ClientError('host_not_found', `no host of the fleet is named "${name}" (hosts: ${[...this.links.keys()].join(', ')})`);
    return link;
  }

  /** Where each host's stream stands: pass it as `since` to a later fleet to resume with nothing lost or doubled. */
  cursor(): Record<string, HostCursor> {
    const cursors: Record<string, HostCursor> = {};
    for (const link of this.links.values()) {
      const cursor = link.status().cursor;
      if (cursor) cursors[link.name] = cursor;
    }
    return cursors;
  }

  /**
   * A method of the single client, on the host its target names: `call('agent.get', {target: 'api@box1'})`
   * asks box1 about `api`. Params without a target go to this machine; `callOn` names the host.
   */
  async call<N extends MethodName>(method: N, ...args: CallArgs<N>): Promise<ResultOf<MethodMap[N]>> {
    const params = (args[0] ?? {}) as Record<string, unknown>;
    const { host, params: local } = this.route(params);
    return (await this.host(host).request(method, local)) as ResultOf<MethodMap[N]>;
  }

  async callOn<N extends MethodName>(host: string, method: N, ...args: CallArgs<N>): Promise<ResultOf<MethodMap[N]>> {
    return (await this.host(host).request(method, args[0] ?? {})) as ResultOf<MethodMap[N]>;
  }

  /** Every host's agents: live from each connected host, the last known (marked stale) from the others. */
  async list(params: ListParams = {}): Promise<FleetAgentList> {
    const perHost = await Promise.all(
      [...this.links.values()].map(async (link) => {
        try {
          const result = await link.list(params);
          return { link, agents: result.agents.map((info) => ({ ...info, host: link.name, stale: false })), seq: result.seq as number | undefined };
        } catch (error) {
          if (!(error instanceof ClientError)) throw error;
          const lastSeen = link.status().lastSeen;
          const agents = link.lastKnown().map((info) => ({ ...info, stale: true, ...(lastSeen !== null ? { lastSeen } : {}) }));
          return { link, agents: agents.filter((info) => passes(info, params.filter)), seq: undefined };
        }
      }),
    );
    const agents = perHost.flatMap((part) => part.agents);
    const seq: Record<string, number> = {};
    for (const part of perHost) if (part.seq !== undefined) seq[part.link.name] = part.seq;
    const hosts = perHost.map(({ link, agents: own }) => {
      const { name, state, since, reason, code, lastSeen } = link.status();
      return { name, state, since, reason, code, lastSeen, ...rollupOf(own) };
    });
    this.keepSeen();
    return { agents, hosts, fleet: rollupOf(agents), seq };
  }

  /** Writes the last known agents of every host ever seen, for the next command (a host never seen is left out). */
  private keepSeen(): void {
    if (!this.lastSeen) return;
    const hosts = new Map<string, SeenHost>();
    for (const link of this.links.values()) {
      const { ssh, lastSeen } = link.status();
      if (lastSeen === null) continue;
      hosts.set(link.name, { ssh, seenAt: lastSeen, agents: link.lastKnown().map(({ host: _host, stale: _stale, lastSeen: _seen, ...info }) => info) });
    }
    this.lastSeen.write(hosts);
  }

  /** `agent.wait` across hosts (see `waitAcrossHosts`). */
  wait(params: FleetWaitParams, options: FleetWaitOptions = {}): Promise<FleetWaitResult> {
    return waitAcrossHosts(this.links, params, options);
  }

  /**
   * Every host's events as one stream, each with its `host`, filtered here by the language of
   * docs/events.md. Each host's events come in its cursor order, once, also across its drops.
   */
  subscribe(options: { filter?: string }, onEvent: (event: FleetEvent) => void): Disposable {
    const filter = parseEventFilter(options.filter ?? '');
    return this.eventEmitter.event((event) => {
      const agent = 'agent' in event.data && typeof event.data.agent === 'string' ? event.data.agent : this.agentOf(event);
      if (matchesEventFilter(filter, event, agent)) onEvent(event);
    });
  }

  /** Ends every host's connection. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const link of this.links.values()) link.dispose();
    this.hostEmitter.dispose();
    this.eventEmitter.dispose();
  }

  dispose(): void {
    this.close();
  }

  private agentOf(event: FleetEvent): string | null {
    const id = event.pane?.id;
    if (id === undefined) return null;
    return this.links.get(event.host)?.lastKnown().find((info) => info.id === id)?.agent ?? null;
  }

  /** The host a call's target (or every one of its targets) names, and the params as that host takes them. */
  private route(params: Record<string, unknown>): { host: string; params: Record<string, unknown> } {
    const { target, targets } = params;
    if (typeof target === 'string') {
      const split = splitHostTarget(target);
      return { host: split.host ?? LOCAL_HOST, params: { ...params, target: split.target } };
    }
    if (Array.isArray(targets) && targets.every((t) => typeof t === 'string')) {
      const split = (targets as string[]).map(splitHostTarget);
      const hosts = new Set(split.map((s) => s.host ?? LOCAL_HOST));
      if (hosts.size > 1) throw new CorralError('invalid_params', `the targets are on ${hosts.size} hosts (${[...hosts].join(', ')}); call it per host, or use the fleet's wait`, { field: 'targets' });
      return { host: [...hosts][0] ?? LOCAL_HOST, params: { ...params, targets: split.map((s) => s.target) } };
    }
    return { host: LOCAL_HOST, params };
  }
}

/**
 * Connects to every host (docs/client.md, "A fleet"): resolves once each was tried once, never
 * failing for a host that is away; that one shows offline in `hosts()` and is tried again with back-off.
 */
export async function connectFleet(hosts: readonly HostSpec[], options: FleetOptions = {}): Promise<Fleet> {
  const fleet = new Fleet(hosts, options);
  await fleet.ready();
  return fleet;
}
