import { EVENT } from '../../protocol/notifications.ts';
import { EVENTS_DROPPED, matchesEventFilter, type EventFilter } from '../../protocol/methods/events.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { Connection } from '../rpc/connection.ts';
import type { EventHub } from './event-hub.ts';

export interface SubscriberLimits {
  /** Writing pauses while the connection holds more than this many unsent bytes. */
  maxBufferedBytes: number;
  /** A subscriber whose buffer stays over the limit this long, with events waiting, is dropped. */
  stallMs: number;
}

/** 1 MiB holds thousands of events: only a client that stopped reading reaches it. */
export const DEFAULT_SUBSCRIBER_BUFFER_BYTES = 1 << 20;
/** A reading client drains 1 MiB in milliseconds; two seconds over it means it stopped. */
export const SLOW_CONSUMER_STALL_MS = 2000;
/** While paused on a full buffer, how often to look again (the connection has no drain hook). */
const RETRY_MS = 20;

type SubscriberLifecycle = 'streaming' | 'stopped';

/**
 * One connection's event stream. Its queue is a cursor into the hub's ring, not a copy, so what it
 * has not taken costs no memory beyond the socket buffer it may fill up to `maxBufferedBytes`; if it
 * falls behind the ring, or stalls over the limit, it is dropped with `slow_consumer`.
 */
export class Subscriber implements Disposable {
  private current: SubscriberLifecycle = 'streaming';
  private next: number;
  private scheduled: NodeJS.Immediate | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stalledSince: number | null = null;
  /** The first flush ran: the subscribe reply is out. */
  private started = false;
  private readonly closing: Disposable;

  constructor(
    private readonly hub: EventHub,
    readonly connection: Connection,
    private readonly filter: EventFilter,
    since: number,
    private readonly limits: SubscriberLimits,
    private readonly ended: (subscriber: Subscriber) => void,
  ) {
    this.next = since + 1;
    this.closing = connection.onClose(() => this.dispose());
    this.wake();
  }

  get lifecycle(): SubscriberLifecycle {
    return this.current;
  }

  /** The last cursor written (or skipped by the filter). */
  get delivered(): number {
    return this.next - 1;
  }

  /**
   * Writes waiting events on the next turn: the subscribe reply, sent in microtasks after the handler,
   * always goes out before the first event.
   */
  wake(): void {
    if (this.current !== 'streaming' || this.scheduled || this.retry) return;
    // Once streaming, an event goes out in the turn that published it (an attention event must not
    // wait behind a whole turn of every pane's output), unless a reply on this connection is pending,
    // which keeps going out first.
    if (this.started && this.connection.idle) return this.flush();
    this.scheduled = setImmediate(() => {
      this.scheduled = null;
      this.started = true;
      this.flush();
    });
  }

  dispose(): void {
    if (this.current === 'stopped') return;
    this.current = 'stopped';
    if (this.scheduled) clearImmediate(this.scheduled);
    if (this.retry) clearTimeout(this.retry);
    this.scheduled = null;
    this.retry = null;
    this.closing.dispose();
    this.ended(this);
  }

  private flush(): void {
    while (this.current === 'streaming' && this.next <= this.hub.cursor) {
      if (this.connection.bufferedBytes > this.limits.maxBufferedBytes) return this.stall();
      const entry = this.hub.at(this.next);
      if (!entry) return this.drop(`fell behind what the ring retains (${this.hub.retention} are kept)`);
      this.next += 1;
      if (matchesEventFilter(this.filter, entry.event, entry.agent) && !this.connection.notify(EVENT, entry.event)) {
        return this.dispose();
      }
    }
    this.stalledSince = null;
  }

  private stall(): void {
    const now = Date.now();
    this.stalledSince ??= now;
    if (now - this.stalledSince >= this.limits.stallMs) {
      return this.drop(`did not read ${this.connection.bufferedBytes} bytes of events for ${now - this.stalledSince} ms`);
    }
    this.retry = setTimeout(() => {
      this.retry = null;
      this.flush();
    }, RETRY_MS);
  }

  private drop(why: string): void {
    const cursor = this.delivered;
    this.connection.log.warn({ cursor, latest: this.hub.cursor, buffered: this.connection.bufferedBytes }, `slow event consumer dropped: ${why}`);
    this.connection.notify(EVENTS_DROPPED, {
      code: 'slow_consumer',
      message: `the event subscriber ${why}; it was dropped after cursor ${cursor}: reconnect and resume with since=${cursor}`,
      cursor,
    });
    this.dispose();
    this.connection.close();
  }
}
