import type { Disposable } from '../../base/disposable.ts';
import { Emitter } from '../../base/emitter.ts';
import { CorralError } from '../../protocol/errors.ts';
import { EVENT } from '../../protocol/notifications.ts';
import type { HostSpec } from '../../protocol/fleet-config.ts';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { AGENT_LIST, type AgentListResult } from '../../protocol/methods/agent-query.ts';
import { EVENTS_SUBSCRIBE, type AnyCorralEvent, type EventsSnapshot } from '../../protocol/methods/events.ts';
import type { ServerStatus } from '../../protocol/methods/server.ts';
import { backoffDelays, sleep, type BackoffOptions } from '../backoff.ts';
import { ClientError, type DaemonConnection } from '../connection.ts';
import type { Endpoint } from '../endpoint.ts';
import { checkProtocol } from '../protocol-check.ts';

export type HostState = 'connecting' | 'connected' | 'offline';

/** Where a host's event stream stands: resume it later by passing this back (`connectFleet(hosts, {since})`). */
export interface HostCursor {
  cursor: number;
  /** The stream the cursor belongs to; null when not known (a cursor typed by a person), taken as the host's current one. */
  epoch: string | null;
}

export interface HostStatus {
  name: string;
  /** `user@box`, or null for this machine. */
  ssh: string | null;
  state: HostState;
  /** When the host entered this state (ms since the epoch). */
  since: number;
  /** Why the host is offline (or why the last attempt failed while connecting again); null when connected. */
  reason: string | null;
  /** The daemon's status as of the last connect; null before the first. */
  daemon: ServerStatus | null;
  /** The host's event stream: the cursor of the last event delivered, and its epoch. */
  cursor: HostCursor | null;
  /** Events the host no longer retained when the stream resumed (its log moved past the cursor): they are lost, and said so. */
  missed: number;
}

/** An agent as the fleet last knew it: `stale` once its host went offline (its state is then the last known, never idle by default). */
export type FleetAgentInfo = AgentInfo & { host: string; stale: boolean };

/** A delivered event and the host it came from. */
export type FleetEvent = AnyCorralEvent & { host: string };

/** The window in which a burst of pane and agent events is folded into one refresh of the host's list. */
const REFRESH_DEBOUNCE_MS = 200;

/**
 * One host of the fleet: its connection (one at a time, reconnected with back-off), its event
 * stream resumed from its own cursor, and the last known agents, kept to be shown stale while the
 * host is away. Lifecycle: connecting -> connected -> offline -> connecting ... until disposed.
 */
export class HostLink implements Disposable {
  private state: HostState = 'connecting';
  private since = Date.now();
  private reason: string | null = null;
  private daemon: ServerStatus | null = null;
  private cursor: HostCursor | null;
  private missed = 0;
  private connection: DaemonConnection | null = null;
  private readonly agents = new Map<string, AgentInfo>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly stopped = new AbortController();
  private readonly statusEmitter = new Emitter<HostStatus>();
  private readonly eventEmitter = new Emitter<FleetEvent>();
  private firstAttempt!: () => void;
  /** Settles after the first attempt to connect, whether it reached the host or not. */
  readonly ready = new Promise<void>((resolve) => (this.firstAttempt = resolve));
  readonly onStatus = this.statusEmitter.event;
  readonly onEvent = this.eventEmitter.event;

  constructor(
    readonly spec: HostSpec,
    readonly endpoint: Endpoint,
    private readonly options: { backoff?: BackoffOptions; since?: HostCursor; warn: (message: string) => void },
  ) {
    this.cursor = options.since ?? null;
    void this.run();
  }

  get name(): string {
    return this.spec.name;
  }

  status(): HostStatus {
    return { name: this.spec.name, ssh: this.spec.ssh, state: this.state, since: this.since, reason: this.reason, daemon: this.daemon, cursor: this.cursor, missed: this.missed };
  }

  /** The last known agents; `stale` unless the host is connected now. */
  lastKnown(): FleetAgentInfo[] {
    const stale = this.state !== 'connected';
    return [...this.agents.values()].map((info) => ({ ...info, host: this.spec.name, stale }));
  }

  /** The connection, or `daemon_unreachable` naming the host, its state and why. */
  live(): DaemonConnection {
    if (this.state === 'connected' && this.connection && !this.connection.closed) return this.connection;
    const when = new Date(this.since).toISOString();
    throw new ClientError('daemon_unreachable', `host ${this.spec.name} is ${this.state} since ${when}${this.reason ? ` (${this.reason})` : ''}; its agents show their last known states, marked stale`);
  }

  request(method: string, params: unknown): Promise<unknown> {
    return this.live().request(method, params);
  }

  /** The host's agents now, which also refreshes what is kept of them. */
  async list(params: { all?: boolean; filter?: object } = {}): Promise<AgentListResult> {
    const result = await this.live().call(AGENT_LIST, params);
    // Only a whole list is what the host has (a filtered one, or one with agentless panes, is not kept).
    if (!params.all && (params.filter === undefined || Object.keys(params.filter).length === 0)) this.keep(result.agents);
    return result;
  }

  dispose(): void {
    if (this.stopped.signal.aborted) return;
    this.stopped.abort();
    clearTimeout(this.refreshTimer);
    this.connection?.dispose();
    this.statusEmitter.dispose();
    this.eventEmitter.dispose();
    this.firstAttempt();
  }

  private move(state: HostState, reason: string | null): void {
    if (this.stopped.signal.aborted) return;
    if (state !== this.state) this.since = Date.now();
    this.state = state;
    this.reason = reason;
    this.statusEmitter.fire(this.status());
  }

  private async run(): Promise<void> {
    let delay = backoffDelays(this.options.backoff);
    while (!this.stopped.signal.aborted) {
      let why: string;
      try {
        const { closed } = await this.open();
        this.firstAttempt();
        delay = backoffDelays(this.options.backoff); // it was reached: the next drop starts the back-off again
        why = (await closed).message;
      } catch (error) {
        why = (error as Error).message;
      }
      this.firstAttempt();
      if (this.stopped.signal.aborted) return;
      this.connection?.dispose();
      this.connection = null;
      this.move('offline', why);
      if (!(await sleep(delay(), this.stopped.signal))) return;
      this.move('connecting', why);
    }
  }

  /** Connects, checks the protocol and subscribes from the cursor; resolves to the connection's end. */
  private async open(): Promise<{ closed: Promise<Error> }> {
    const connection = await this.endpoint.dial();
    this.connection = connection;
    const closed = new Promise<Error>((resolve) => connection.onClose(resolve));
    if (this.stopped.signal.aborted) connection.dispose();
    this.daemon = await checkProtocol(connection, { strict: false, warn: this.options.warn });
    // Events can come before the subscribe's answer (a replay from the cursor): held until the snapshot is known.
    let snapshotCursor: number | null = null;
    const held: AnyCorralEvent[] = [];
    connection.onNotification(EVENT, (event) => {
      if (snapshotCursor === null) held.push(event as AnyCorralEvent);
      else this.deliver(event as AnyCorralEvent, snapshotCursor);
    });
    const { snapshot, cursor, epoch } = await this.subscribe(connection);
    snapshotCursor = cursor;
    const resumed = this.cursor !== null && (this.cursor.epoch === null || this.cursor.epoch === epoch);
    this.cursor = { cursor: resumed ? this.cursor!.cursor : cursor, epoch };
    this.keepSnapshot(snapshot);
    for (const event of held) this.deliver(event, cursor);
    this.reason = null;
    this.move('connected', null);
    return { closed };
  }

  /** From the cursor when there is one; a cursor the host no longer holds is counted as missed events, and the stream starts now. */
  private async subscribe(connection: DaemonConnection): Promise<{ cursor: number; epoch: string; snapshot: EventsSnapshot }> {
    const from = this.cursor;
    if (from === null) return connection.call(EVENTS_SUBSCRIBE, {});
    try {
      return await connection.call(EVENTS_SUBSCRIBE, { since: from.cursor, ...(from.epoch !== null ? { epoch: from.epoch } : {}) });
    } catch (error) {
      if (!(error instanceof CorralError) || error.code !== 'cursor_too_old') throw error;
      const fresh = await connection.call(EVENTS_SUBSCRIBE, {});
      // Of the same stream, the events between the cursor and the oldest retained are gone; of another epoch, how many is unknown.
      const oldest = typeof error.details.oldest === 'number' ? error.details.oldest : from.cursor + 1;
      if (error.details.epoch === from.epoch) this.missed += Math.max(0, oldest - 1 - from.cursor);
      this.cursor = { cursor: fresh.cursor, epoch: fresh.epoch };
      return fresh;
    }
  }

  /** Each event once, in cursor order; those after the snapshot also move what is kept of the agents. */
  private deliver(event: AnyCorralEvent, snapshotCursor: number): void {
    if (this.cursor === null || event.cursor <= this.cursor.cursor) return;
    this.cursor = { cursor: event.cursor, epoch: this.cursor.epoch };
    if (event.cursor > snapshotCursor) this.apply(event);
    this.eventEmitter.fire({ ...event, host: this.spec.name });
  }

  private keepSnapshot(snapshot: EventsSnapshot): void {
    this.keep(snapshot.agents);
  }

  private keep(agents: readonly AgentInfo[]): void {
    this.agents.clear();
    for (const info of agents) this.agents.set(info.id, info);
  }

  private apply(event: AnyCorralEvent): void {
    const id = event.pane?.id;
    if (id === undefined) return;
    const known = this.agents.get(id);
    switch (event.kind) {
      case 'agent.stateChanged':
        if (known) {
          const { to, seen, revision, rule, source, prompt } = event.data;
          const { prompt: _was, ...rest } = known;
          this.agents.set(id, { ...rest, state: to, seen, revision, rule, source, stateSince: event.ts, ...(prompt ? { prompt } : {}) });
        } else this.refreshSoon();
        return;
      case 'agent.seen':
        if (known) this.agents.set(id, { ...known, state: event.data.state, seen: event.data.seen });
        return;
      case 'agent.released':
      case 'pane.exited':
      case 'pane.removed':
        this.agents.delete(id);
        return;
      case 'agent.detected':
        this.refreshSoon();
        return;
      default:
        return;
    }
  }

  /** A new agent's full record is not in its event: the list is asked again, once per burst. */
  private refreshSoon(): void {
    if (this.refreshTimer !== undefined || this.stopped.signal.aborted) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.state === 'connected') this.list().catch(() => {}); // a drop meanwhile keeps what was known
    }, REFRESH_DEBOUNCE_MS);
    this.refreshTimer.unref();
  }
}
