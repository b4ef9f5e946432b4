import { CorralError } from '../protocol/errors.ts';
import { EVENT } from '../protocol/notifications.ts';
import { EVENTS_SUBSCRIBE, type AnyCorralEvent, type EventsSnapshot } from '../protocol/methods/events.ts';
import { DEFAULT_RECONNECT_GRACE_MS, retryWithin, type BackoffOptions } from './backoff.ts';
import { ClientError, type DaemonConnection } from './connection.ts';
import { endpointOf, type DaemonAddress, type Endpoint } from './endpoint.ts';

export interface SubscribeOptions {
  /** The filter language of docs/events.md, e.g. `kind:agent.attention pane:api`. */
  filter?: string;
  /** Resume after this cursor (exclusive); without it the stream starts now. */
  since?: number;
  /** The epoch `since` belongs to (from an earlier stream), so a cursor of another stream is refused, not misread. */
  epoch?: string;
  /** How long the daemon may stay away before the stream ends with `daemon_unreachable` (default 60 s). */
  reconnectGraceMs?: number;
}

/** A live event stream on its own connection; it resumes from its cursor after a lost connection. */
export interface Subscription {
  /** The cursor of the last event delivered (or where the stream started). Pass it as `since` to resume later. */
  readonly cursor: number;
  /** The consistent view the stream started from (taken at the first subscribe). */
  readonly snapshot: EventsSnapshot;
  /** Settles when the stream ends: resolves after `close()`, rejects when it cannot resume (e.g. `cursor_too_old`, `stream_changed`). */
  readonly ended: Promise<void>;
  close(): void;
}

/**
 * One subscription. Each runs on its own connection, so several filters can stream at once; when the
 * connection is lost it reconnects with back-off and subscribes again from its cursor, so no retained
 * event is missed or delivered twice.
 */
export class EventStream implements Subscription {
  cursor: number;
  snapshot!: EventsSnapshot;
  /** The stream's epoch, from the first subscribe: every resume names it. */
  epoch: string | undefined;
  readonly ended: Promise<void>;
  private connection: DaemonConnection | null = null;
  private readonly stopped = new AbortController();
  private finish!: (error?: Error) => void;
  private readonly endpoint: Endpoint;

  constructor(
    address: DaemonAddress,
    private readonly options: SubscribeOptions,
    private readonly onEvent: (event: AnyCorralEvent) => void,
    private readonly reconnect: BackoffOptions | false,
  ) {
    this.endpoint = endpointOf(address);
    this.cursor = options.since ?? 0;
    this.epoch = options.epoch;
    this.ended = new Promise<void>((resolve, reject) => {
      this.finish = (error) => (error ? reject(error) : resolve());
    });
    this.ended.catch(() => {}); // a caller that never awaits `ended` must not crash the process
  }

  /** Subscribes for the first time; rejects as `events.subscribe` would. */
  async start(): Promise<void> {
    const { snapshot } = await this.open(this.options.since);
    this.snapshot = snapshot;
  }

  close(): void {
    if (this.stopped.signal.aborted) return;
    this.stopped.abort();
    this.connection?.dispose();
    this.finish();
  }

  private async open(since: number | undefined): Promise<{ snapshot: EventsSnapshot }> {
    const connection = await this.endpoint.dial();
    this.connection = connection;
    connection.onNotification(EVENT, (event) => {
      if (event.cursor <= this.cursor && since !== undefined) return;
      this.cursor = event.cursor;
      this.onEvent(event as AnyCorralEvent);
    });
    try {
      const params = {
        ...(this.options.filter !== undefined ? { filter: this.options.filter } : {}),
        ...(since !== undefined ? { since } : {}),
        ...(since !== undefined && this.epoch !== undefined ? { epoch: this.epoch } : {}),
      };
      const result = await connection.call(EVENTS_SUBSCRIBE, params);
      this.epoch = result.epoch;
      if (since === undefined) this.cursor = Math.max(this.cursor, result.cursor);
      connection.onClose(() => void this.resume());
      return result;
    } catch (error) {
      connection.dispose();
      throw error;
    }
  }

  /** After a lost connection: subscribe again from the cursor, with back-off, until closed. */
  private async resume(): Promise<void> {
    if (this.stopped.signal.aborted) return;
    if (this.reconnect === false) {
      this.stopped.abort();
      return this.finish(new CorralError('internal_error', 'the event stream lost its connection and reconnecting is off'));
    }
    const graceMs = this.options.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS;
    try {
      const opened = await retryWithin(() => this.open(this.cursor), {
        graceMs,
        awaySince: Date.now(),
        backoff: this.reconnect,
        signal: this.stopped.signal,
        // The daemon answered but refused (cursor_too_old, stream_changed): resuming cannot work.
        isFinal: (error) => error instanceof CorralError,
      });
      if (opened !== null || this.stopped.signal.aborted) return;
      this.stopped.abort();
      this.finish(new ClientError('daemon_unreachable', `the daemon at ${this.endpoint.label} went away and did not come back within ${graceMs} ms; resume later with since=${this.cursor}`));
    } catch (error) {
      this.stopped.abort();
      this.finish(error as Error);
    }
  }
}
