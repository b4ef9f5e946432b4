/**
 * `corral/client`: a typed client for the Corral daemon. `await connect()` resolves to a client whose
 * `call` is typed by method name, whose `subscribe` streams typed events and resumes from its cursor,
 * and which reconnects with back-off when the daemon restarts (docs/client.md).
 */
import { resolveSocketPath } from '../protocol/socket-path.ts';
import type { ParamsOf, ResultOf } from '../protocol/method.ts';
import type { MethodMap, MethodName } from '../protocol/methods/index.ts';
import type { AnyCorralEvent } from '../protocol/methods/events.ts';
import type { ServerStatus } from '../protocol/methods/server.ts';
import { backoffDelays, DEFAULT_RECONNECT_GRACE_MS, sleep, type BackoffOptions } from './backoff.ts';
import { ClientError, type DaemonConnection } from './connection.ts';
import { checkProtocol } from './protocol-check.ts';
import { waitCarryingOn, type AgentWaitParams } from './carry-on-wait.ts';
import type { AgentWaitResult } from '../protocol/methods/agent-wait.ts';
import { EventStream, type SubscribeOptions, type Subscription } from './subscription.ts';
import { resolveTargets, type TargetOptions } from './targets.ts';
import { endpointOf, type Endpoint } from './endpoint.ts';
import type { LiveSource } from './live-feed.ts';

export { ClientError, DaemonConnection, type ClientErrorCode } from './connection.ts';
export { checkProtocol } from './protocol-check.ts';
export { CorralError, ERRORS, type ErrorCode } from '../protocol/errors.ts';
export type { AgentState } from '../protocol/states.ts';
export type * from '../protocol/methods/index.ts';
export type { AnyCorralEvent, CorralEvent, EventKind, EventData, EventsSnapshot } from '../protocol/methods/events.ts';
export { DEFAULT_RECONNECT_GRACE_MS, type BackoffOptions } from './backoff.ts';
export { waitCarryingOn, type AgentWaitParams, type CarryOnOptions } from './carry-on-wait.ts';
export { EventStream } from './subscription.ts';
export type { SubscribeOptions, Subscription } from './subscription.ts';
export { PROTOCOL_MINOR, PROTOCOL_VERSION } from '../protocol/version.ts';
export { resolveTargets, type TargetOptions } from './targets.ts';
export { InboxView } from './inbox-view.ts';
export { LiveAgents, needsYou, type LiveChange } from './live-agents.ts';
export { followConnection, LiveFeed, type LiveSource } from './live-feed.ts';
export { endpointOf, socketEndpoint, type DaemonAddress, type Endpoint } from './endpoint.ts';
export { connectFleet, endpointFor, Fleet, fleetHosts, type FleetAgentList, type FleetOptions } from './fleet/fleet.ts';
export { waitAcrossHosts } from './fleet/fleet-wait.ts';
export type { FleetWaitOptions, FleetWaitParams, FleetWaitResult } from './fleet/fleet-wait.ts';
export type { FleetAgentInfo, FleetEvent, HostCursor, HostState, HostStatus } from './fleet/host-link.ts';
export { qualify, splitHostTarget, type HostTarget } from './fleet/host-target.ts';
export { configuredHost, hostByName, loadFleetConfig, loadHosts, localHost } from './fleet/hosts.ts';
export { LastSeenFile, lastSeenPath, type SeenHost } from './fleet/last-seen.ts';
export { rollupOf, type HostRollup, type Rollup } from './fleet/rollup.ts';
export { shortReason } from './fleet/short-reason.ts';
export { shellQuote } from './fleet/shell-quote.ts';
export { bridgeArgv, sshArgvFor, sshEndpoint } from './fleet/ssh-endpoint.ts';
export { LOCAL_HOST, type FleetConfig, type HostSpec } from '../protocol/fleet-config.ts';

export interface ConnectOptions {
  /** The daemon socket; default $CORRAL_SOCKET, then $XDG_RUNTIME_DIR/corral/corral.sock, then /tmp/corral-$UID/corral.sock. */
  socket?: string;
  /** Another way to reach the daemon (a host through ssh: `sshEndpoint`); `socket` is then unused. */
  endpoint?: Endpoint;
  /** Back-off for reconnecting after a lost connection, or `false` to never reconnect (default: 100 ms doubling to 5 s). */
  reconnect?: BackoffOptions | false;
  /** Told about a protocol major mismatch (default: `process.emitWarning`). */
  onWarning?: (message: string) => void;
  /** Refuse a daemon of another protocol major instead of warning (the CLI's choice). */
  strictProtocol?: boolean;
  /** The longest the first connect may take, in ms (default and ceiling 5000). */
  connectTimeoutMs?: number;
  /** Aborting it while `connect` is still checking the protocol closes the connection, and `connect` rejects. */
  signal?: AbortSignal;
}

/** Params of a method; optional as a whole when every field is optional. */
type CallArgs<N extends MethodName> = {} extends ParamsOf<MethodMap[N]> ? [params?: ParamsOf<MethodMap[N]>] : [params: ParamsOf<MethodMap[N]>];

export class CorralClient {
  private current: DaemonConnection;
  private reconnecting: Promise<void> | null = null;
  private readonly stopped = new AbortController();
  private readonly streams = new Set<EventStream>();
  private readonly warn: (message: string) => void;

  /** The daemon's status as of the last (re)connect. */
  status: ServerStatus;

  constructor(
    connection: DaemonConnection,
    status: ServerStatus,
    private readonly options: ConnectOptions & { endpoint: Endpoint },
  ) {
    this.current = connection;
    this.status = status;
    this.warn = options.onWarning ?? ((message) => process.emitWarning(message, { code: 'CORRAL_PROTOCOL' }));
    this.watch(connection);
  }

  /** The daemon's socket path (or, reached another way, the endpoint's label). */
  get socket(): string {
    return this.options.endpoint.label;
  }

  /** How this client reaches the daemon; each dial opens a new connection. */
  get endpoint(): Endpoint {
    return this.options.endpoint;
  }

  /** The underlying connection (the CLI's commands use it directly); replaced after a reconnect. */
  get connection(): DaemonConnection {
    return this.current;
  }

  /**
   * Calls a method by name: `await client.call('agent.wait', { targets: ['api'] })`. Rejects with a
   * `CorralError` (its `code` is the stable `error.data.code`) or a `ClientError`. A call made while
   * the client reconnects waits for the new connection; a call in flight when the connection drops
   * rejects with `connection_closed`, since it may or may not have run.
   */
  async call<N extends MethodName>(method: N, ...args: CallArgs<N>): Promise<ResultOf<MethodMap[N]>> {
    if (this.reconnecting) await this.reconnecting;
    if (this.stopped.signal.aborted) throw new ClientError('connection_closed', 'the client was closed');
    return (await this.current.request(method, args[0] ?? {})) as ResultOf<MethodMap[N]>;
  }

  /**
   * The pane ids a target names: itself, or every pane of a group (`@W`, `test-*`), in creation order
   * (`resolveTargets`); `{one: 'what'}` refuses a group of more than one with `invalid_params`.
   */
  async targets(target: string, options: TargetOptions = {}): Promise<string[]> {
    return resolveTargets(target, async () => (await this.call('pane.list', {})).panes, options);
  }

  /**
   * `agent.wait` on a connection of its own that outlives the daemon: when the daemon goes away it
   * reconnects with back-off and asks again with what is left of `timeoutMs`, and rejects with
   * `daemon_unreachable` only when the daemon stays away past `reconnectGraceMs` (default 60 s).
   * Aborting `signal` cancels it.
   */
  wait(params: AgentWaitParams, options: { reconnectGraceMs?: number; signal?: AbortSignal } = {}): Promise<AgentWaitResult> {
    const reconnect = this.options.reconnect;
    return waitCarryingOn(this.options.endpoint, params, {
      graceMs: reconnect === false ? 0 : (options.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS),
      ...(reconnect ? { backoff: reconnect } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * Streams events on a connection of its own, typed by kind (`event.kind === 'agent.stateChanged'`
   * narrows `event.data`). Pass `since` to resume after a cursor; after a lost connection it resumes
   * by itself from the last event it delivered.
   */
  async subscribe(options: SubscribeOptions, onEvent: (event: AnyCorralEvent) => void): Promise<Subscription> {
    const stream = new EventStream(this.options.endpoint, options, onEvent, this.options.reconnect ?? {});
    await stream.start();
    this.streams.add(stream);
    void stream.ended.finally(() => this.streams.delete(stream)).catch(() => {});
    return stream;
  }

  /** Ends every connection and stream of this client. Safe to call twice. */
  close(): void {
    if (this.stopped.signal.aborted) return;
    this.stopped.abort();
    this.current.dispose();
    for (const stream of this.streams) stream.close();
  }

  private watch(connection: DaemonConnection): void {
    connection.onClose(() => {
      if (this.stopped.signal.aborted || this.options.reconnect === false) return;
      this.reconnecting ??= this.reconnectLoop().finally(() => (this.reconnecting = null));
    });
  }

  private async reconnectLoop(): Promise<void> {
    const delay = backoffDelays(this.options.reconnect || {});
    while (await sleep(delay(), this.stopped.signal)) {
      try {
        const connection = await this.options.endpoint.dial();
        try {
          this.status = await checkProtocol(connection, { strict: this.options.strictProtocol ?? false, warn: this.warn });
        } catch (error) {
          connection.dispose();
          throw error;
        }
        this.current = connection;
        this.watch(connection);
        return;
      } catch {
        // the daemon is not back yet: try again after the next delay
      }
    }
  }
}

/** What a LiveFeed reads of the client's daemon: its resumable stream, its inbox, and (before 2.7) an agent. */
export function liveSourceOf(client: CorralClient): LiveSource {
  return {
    subscribe: (onEvent) => client.subscribe({}, onEvent),
    inbox: async () => (await client.call('inbox.list', {})).items,
    agent: (id) => client.call('agent.get', { target: id }),
  };
}

/** Connects to the daemon, checks the protocol version, and resolves to a typed client. */
export async function connect(options: ConnectOptions = {}): Promise<CorralClient> {
  const endpoint = options.endpoint ?? endpointOf(resolveSocketPath(options.socket));
  const connection = await endpoint.dial(options.connectTimeoutMs);
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, { code: 'CORRAL_PROTOCOL' }));
  const abandon = () => connection.dispose();
  options.signal?.addEventListener('abort', abandon, { once: true });
  try {
    if (options.signal?.aborted) throw new ClientError('connection_closed', 'the connect was abandoned');
    const status = await checkProtocol(connection, { strict: options.strictProtocol ?? false, warn });
    return new CorralClient(connection, status, { ...options, endpoint });
  } catch (error) {
    connection.dispose();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', abandon);
  }
}
