import { CorralError } from '../../protocol/errors.ts';
import type { CorralEvent, EventData, EventKind } from '../../protocol/methods/events.ts';
import type { Disposable } from '../../base/disposable.ts';
import { Emitter } from '../../base/emitter.ts';
import type { Logger } from '../logger.ts';
import { EventRing, MAX_EVENT_RING_BYTES, type RetainedEvent } from './event-ring.ts';

/** The floor: a client that reconnects within 10,000 events resumes without loss. */
export const DEFAULT_RETAIN = 10_000;

export type PaneRef = { id: string; name: string | null } | null;

/**
 * The daemon's event log: numbers each event with a monotonic cursor, keeps the last `retain` in a
 * ring, and tells in-process listeners (subscribers, notifications) synchronously in order.
 */
export class EventHub implements Disposable {
  private readonly ring: EventRing;
  private readonly published: Emitter<RetainedEvent>;

  /** Names this daemon's stream; a cursor of another epoch is never resumed. */
  readonly epoch: string;
  private readonly firstCursorAfter: number;

  /** Where each event is written before anyone is told of it (the durable log), when the daemon keeps one. */
  private readonly persist: ((entry: RetainedEvent) => void) | null;

  constructor(options: {
    retain?: number;
    retainBytes?: number;
    log: Logger;
    now?: () => number;
    epoch?: string;
    firstCursorAfter?: number;
    /** Events an earlier daemon of this stream published, oldest first, contiguous up to `lastCursor`. */
    restored?: { events: readonly RetainedEvent[]; lastCursor: number };
    persist?: (entry: RetainedEvent) => void;
  }) {
    const restored = options.restored;
    const ringAfter = restored ? restored.lastCursor - restored.events.length : (options.firstCursorAfter ?? 0);
    this.ring = new EventRing(options.retain ?? DEFAULT_RETAIN, ringAfter, options.retainBytes ?? MAX_EVENT_RING_BYTES);
    for (const entry of restored?.events ?? []) this.ring.push(entry);
    this.persist = options.persist ?? null;
    this.epoch = options.epoch ?? '';
    this.firstCursorAfter = options.firstCursorAfter ?? 0;
    this.now = options.now ?? Date.now;
    this.published = new Emitter((error) => options.log.error({ err: error }, 'event listener failed'));
  }

  private readonly now: () => number;

  /** The last published cursor (0 before any). */
  get cursor(): number {
    return this.ring.latest;
  }

  /** The oldest retained cursor; `cursor + 1` while nothing is retained. */
  get oldest(): number {
    return this.ring.oldest;
  }

  /** The cursor before this stream's first event; `since: 0` means it (everything since the stream began, across restarts). */
  get start(): number {
    return this.firstCursorAfter;
  }

  /** A client's `since`, with 0 read as the start of this stream. */
  resolveSince(since: number): number {
    return since === 0 ? this.firstCursorAfter : since;
  }

  get retain(): number {
    return this.ring.capacity;
  }

  /** What the ring retains, as words for messages: its count and byte bounds. */
  get retention(): string {
    return `the last ${this.ring.capacity} events, at most ${this.ring.maxBytes} bytes of them,`;
  }

  publish<K extends EventKind>(kind: K, pane: PaneRef, data: EventData[K], agent: string | null = null): CorralEvent<K> {
    const event: CorralEvent<K> = { cursor: this.ring.nextCursor(), ts: this.now(), kind, pane, data };
    const entry: RetainedEvent = { event: event as CorralEvent, agent, bytes: Buffer.byteLength(JSON.stringify(event)) + 1 };
    this.ring.push(entry);
    this.persist?.(entry);
    this.published.fire(entry);
    return event;
  }

  onPublish(listener: (entry: RetainedEvent) => void): Disposable {
    return this.published.event(listener);
  }

  at(cursor: number): RetainedEvent | undefined {
    return this.ring.at(cursor);
  }

  /**
   * Throws unless every event after `since` is still retained: `stream_changed` when the cursor is not
   * of this stream (of another epoch, before its start, or ahead of its last event: another daemon's
   * cursor, or the log that numbered it was lost), `cursor_too_old` when it is but events after it are
   * no longer retained. Both carry this stream's epoch, start, oldest and latest cursors.
   */
  checkResumable(since: number, epoch?: string): void {
    const latest = this.ring.latest;
    const data = { since, oldest: this.ring.oldest, latest, epoch: this.epoch, start: this.firstCursorAfter };
    const again = 'subscribe again without since, and start from the snapshot';
    if (epoch !== undefined && epoch !== this.epoch) {
      throw new CorralError('stream_changed', `cursor ${since} is of epoch ${epoch}, but this daemon's stream is epoch ${this.epoch} (its event log was lost, or the cursor is another daemon's); ${again}`, data);
    }
    if (since > latest) {
      throw new CorralError('stream_changed', `cursor ${since} is ahead of the last event ${latest}: no event of this stream had it (the cursor is another daemon's, or the log that numbered it was lost); ${again}`, data);
    }
    if (since < this.firstCursorAfter) {
      throw new CorralError('stream_changed', `cursor ${since} is before this stream began at ${this.firstCursorAfter}: it is of an earlier stream, whose event log was lost; ${again}`, data);
    }
    if (since < this.ring.oldest - 1) {
      throw new CorralError('cursor_too_old', `cursor ${since} is no longer retained (oldest is ${this.ring.oldest}; ${this.retention} are kept, across restarts too, unless the log lost them); ${again}`, data);
    }
  }

  dispose(): void {
    this.published.dispose();
  }
}
