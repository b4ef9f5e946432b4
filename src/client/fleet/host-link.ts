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
import { LiveAgents } from '../live-agents.ts';
import { printable } from '../printable.ts';
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
  /** The stable code of that reason (`daemon_unreachable`, `frame_too_large`, `bad_reply`, `timeout`, ...; docs/fleet.md); null when connected. */
  code: string | null;
  /** The daemon's status as of the last connect; null before the first. */
  daemon: ServerStatus | null;
  /** The host's event stream: the cursor of the last event delivered, and its epoch. */
  cursor: HostCursor | null;
  /** Events the host no longer retained when the stream resumed (its log moved past the cursor): they are lost, and said so. */
  missed: number;
  /** When the host was last connected, its agents last known live (ms since the epoch; now while connected); null if never seen. */
  lastSeen: number | null;
}

/** An agent as the fleet last knew it: `stale` once its host went offline (its state is then the last known, never idle by default). */
export type FleetAgentInfo = AgentInfo & { host: string; stale: boolean; lastSeen?: number };

/** A delivered event and the host it came from. */
export type FleetEvent = AnyCorralEvent & { host: string };

/** The window in which a burst of pane and agent events is folded into one refresh of the host's list. */
const REFRESH_DEBOUNCE_MS = 200;
/** Once ssh reached the daemon, the most its status and the subscription's snapshot may take. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;
/** The most a host's `agent.list` for the fleet may take; past it the host is cut off and shown offline. */
export const LIST_TIMEOUT_MS = 20_000;
/**
 * Events that come before the subscription's answer are held until it comes, up to this many bytes (as
 * JSON). The daemon sends its answer before any event (src/daemon/events/subscriber.ts), so a host that
 * sends more is broken: it is cut off, and shown offline with `bad_reply`, rather than read on. Held as
 * parsed events, each several times its JSON in memory, and once per connection a view opens: 64 KiB,
 * not the 1 MiB frame bound (held up to 1 MiB, three connections of `corral web --fleet` to such a host
 * peaked 15 MiB over those to a daemon; test/fleet/hostile-host.test.ts).
 */
export const MAX_HELD_EVENT_BYTES = 64 * 1024;
/** The most of a reason shown for a host: it may quote what the host said. */
const REASON_CHARS = 500;

/**
 * One host of the fleet: its connection (one at a time, reconnected with back-off), its event
 * stream resumed from its own cursor, and the last known agents, kept to be shown stale while the
 * host is away. Lifecycle: connecting -> connected -> offline -> connecting ... until disposed.
 */
export class HostLink implements Disposable {
  private state: HostState = 'connecting';
  private since = Date.now();
  private reason: string | null = null;
  private code: string | null = null;
  private daemon: ServerStatus | null = null;
  private cursor: HostCursor | null;
  private missed = 0;
  /** When the agents kept were last known live: set while connected and as the host leaves, or given by `options.seen`. */
  private seenAt: number | null = null;
  private connection: DaemonConnection | null = null;
  /** The host's agents, kept from its snapshot and events (and whole lists), shown stale while it is away. */
  readonly agents = new LiveAgents();
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
    private readonly options: { backoff?: BackoffOptions; once?: boolean; since?: HostCursor; seen?: { agents: readonly AgentInfo[]; seenAt: number }; warn: (message: string) => void },
  ) {
    this.cursor = options.since ?? null;
    if (options.seen) {
      // What an earlier command saw (last-seen.ts), shown stale until the host answers with its own.
      this.keep(options.seen.agents);
      this.seenAt = options.seen.seenAt;
    }
    this.agents.onChange((change) => {
      if (change.kind === 'incomplete') this.refreshSoon();
    });
    void this.run();
  }

  get name(): string {
    return this.spec.name;
  }

  status(): HostStatus {
    const lastSeen = this.state === 'connected' ? Date.now() : this.seenAt;
    return { name: this.spec.name, ssh: this.spec.ssh, state: this.state, since: this.since, reason: this.reason, code: this.code, daemon: this.daemon, cursor: this.cursor, missed: this.missed, lastSeen };
  }

  /** The last known agents; `stale` (with when they were last seen) unless the host is connected now. */
  lastKnown(): FleetAgentInfo[] {
    if (this.state === 'connected') return this.agents.list().map((info) => ({ ...info, host: this.spec.name, stale: false }));
    const lastSeen = this.seenAt ?? undefined;
    return this.agents.list().map((info) => ({ ...info, host: this.spec.name, stale: true, ...(lastSeen !== undefined ? { lastSeen } : {}) }));
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
    const connection = this.live();
    const result = await withDeadline(connection.call(AGENT_LIST, params), LIST_TIMEOUT_MS, () => {
      const error = new ClientError('timeout', `host ${this.spec.name} did not answer agent.list within ${LIST_TIMEOUT_MS / 1000} s; it was disconnected and is tried again`);
      connection.breakOff(error);
      return error;
    });
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
    this.agents.dispose();
    this.firstAttempt();
  }

  private move(state: HostState, why: { reason: string; code: string } | null): void {
    if (this.stopped.signal.aborted) return;
    if (state !== this.state) this.since = Date.now();
    if (this.state === 'connected' && state !== 'connected') this.seenAt = this.since;
    this.state = state;
    this.reason = why && printable(why.reason, REASON_CHARS);
    this.code = why && why.code;
    this.statusEmitter.fire(this.status());
  }

  private async run(): Promise<void> {
    let delay = backoffDelays(this.options.backoff);
    while (!this.stopped.signal.aborted) {
      let why: { reason: string; code: string };
      try {
        const { closed } = await this.open();
        this.firstAttempt();
        delay = backoffDelays(this.options.backoff); // it was reached: the next drop starts the back-off again
        why = reasonOf(await closed);
      } catch (error) {
        why = reasonOf(error as Error);
      }
      this.firstAttempt();
      if (this.stopped.signal.aborted) return;
      this.connection?.dispose();
      this.connection = null;
      this.move('offline', why);
      if (this.options.once) return;
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
    // Events before the subscribe's answer (which a daemon sends first) are held until the snapshot is known.
    let snapshotCursor: number | null = null;
    const held = new HeldEvents();
    connection.onNotification(EVENT, (event) => {
      if (!isEvent(event)) return; // not an event at all: nothing to deliver, and no cursor to move
      if (snapshotCursor !== null) return this.deliver(event, snapshotCursor);
      if (held.add(event)) return;
      connection.breakOff(
        new ClientError('bad_reply', `host ${this.spec.name} sent more than ${MAX_HELD_EVENT_BYTES / 1024} KiB of events before answering events.subscribe, which a corral daemon answers first: check that what answers there is corral`),
      );
    });
    const { snapshot, cursor, epoch } = await withDeadline(this.handshake(connection), HANDSHAKE_TIMEOUT_MS, () => {
      const error = new ClientError(
        'timeout',
        `host ${this.spec.name} did not finish its handshake (server.status, events.subscribe) within ${HANDSHAKE_TIMEOUT_MS / 1000} s; it was disconnected and is tried again`,
      );
      connection.breakOff(error);
      return error;
    });
    snapshotCursor = cursor;
    const resumed = this.cursor !== null && (this.cursor.epoch === null || this.cursor.epoch === epoch);
    this.cursor = { cursor: resumed ? this.cursor!.cursor : cursor, epoch };
    this.keepSnapshot(snapshot);
    for (const event of held.events) this.deliver(event, cursor);
    this.move('connected', null);
    return { closed };
  }

  /** The daemon's status, checked, then the subscription from the cursor. */
  private async handshake(connection: DaemonConnection): Promise<{ cursor: number; epoch: string; snapshot: EventsSnapshot }> {
    this.daemon = await checkProtocol(connection, { strict: false, warn: this.options.warn });
    return this.subscribe(connection);
  }

  /** From the cursor when there is one; a cursor the host no longer holds is counted as missed events, and the stream starts now. */
  private async subscribe(connection: DaemonConnection): Promise<{ cursor: number; epoch: string; snapshot: EventsSnapshot }> {
    const from = this.cursor;
    if (from === null) return connection.call(EVENTS_SUBSCRIBE, {});
    try {
      return await connection.call(EVENTS_SUBSCRIBE, { since: from.cursor, ...(from.epoch !== null ? { epoch: from.epoch } : {}) });
    } catch (error) {
      // Too old: the host no longer holds the events after it; stream_changed: the host's stream is another one.
      if (!(error instanceof CorralError) || (error.code !== 'cursor_too_old' && error.code !== 'stream_changed')) throw error;
      const fresh = await connection.call(EVENTS_SUBSCRIBE, {});
      // Of the same stream, the events between the cursor and the oldest retained are gone; of another stream, how many is unknown.
      const oldest = typeof error.details.oldest === 'number' ? error.details.oldest : from.cursor + 1;
      if (error.code === 'cursor_too_old' && error.details.epoch === from.epoch) this.missed += Math.max(0, oldest - 1 - from.cursor);
      this.cursor = { cursor: fresh.cursor, epoch: fresh.epoch };
      return fresh;
    }
  }

  /** Each event once, in cursor order; those after the snapshot also move what is kept of the agents. */
  private deliver(event: AnyCorralEvent, snapshotCursor: number): void {
    if (this.cursor === null || event.cursor <= this.cursor.cursor) return;
    this.cursor = { cursor: event.cursor, epoch: this.cursor.epoch };
    if (event.cursor > snapshotCursor) this.agents.apply(event);
    this.eventEmitter.fire({ ...event, host: this.spec.name });
  }

  private keepSnapshot(snapshot: EventsSnapshot): void {
    this.keep(snapshot.agents);
  }

  private keep(agents: readonly AgentInfo[]): void {
    this.agents.reset(agents);
  }

  /** A change an event of a daemon before 2.7 did not carry whole: the list is asked again, once per burst. */
  private refreshSoon(): void {
    if (this.refreshTimer !== undefined || this.stopped.signal.aborted) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.state === 'connected') this.list().catch(() => {}); // a drop meanwhile keeps what was known
    }, REFRESH_DEBOUNCE_MS);
    this.refreshTimer.unref();
  }
}

/** Enough of an event to hold, order and deliver it: the host's word for the rest. */
function isEvent(value: unknown): value is AnyCorralEvent {
  const event = value as Partial<AnyCorralEvent> | null;
  return typeof event === 'object' && event !== null && typeof event.cursor === 'number' && typeof event.kind === 'string' && typeof event.data === 'object' && event.data !== null;
}

/** Why a connection ended or could not be made, and its stable code. */
function reasonOf(error: Error): { reason: string; code: string } {
  const code = error instanceof ClientError || error instanceof CorralError ? error.code : 'daemon_unreachable';
  return { reason: error.message, code };
}

/** `work`, or the error `late` makes once `ms` have passed without it settling. */
async function withDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Events held until the subscription's answer, up to MAX_HELD_EVENT_BYTES. */
class HeldEvents {
  readonly events: AnyCorralEvent[] = [];
  private bytes = 0;

  /** Holds the event; false once they are over the bound. */
  add(event: AnyCorralEvent): boolean {
    this.bytes += JSON.stringify(event).length;
    if (this.bytes > MAX_HELD_EVENT_BYTES) return false;
    this.events.push(event);
    return true;
  }
}
