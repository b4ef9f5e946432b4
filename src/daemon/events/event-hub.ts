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
   * Throws `cursor_too_old` unless every event after `since` is still retained, or when the client's
   * cursor is of another epoch (another daemon's stream); the error carries this stream's epoch.
   */
  checkResumable(since: number, epoch?: string): void {
    const latest = this.ring.latest;
    if (epoch !== undefined && epoch !== this.epoch) {
      throw new CorralError(
        'cursor_too_old',
        `cursor ${since} is of epoch ${epoch}, but this daemon's stream is epoch ${this.epoch} (the daemon's event log was lost, so its stream started anew); subscribe again without since`,
        { since, oldest: this.ring.oldest, latest, epoch: this.epoch },
      );
    }
    if (since > latest) {
      throw new CorralError(
        'cursor_too_old',
        `cursor ${since} is ahead of the last event ${latest} (a cursor of another daemon, or its event log was lost?); subscribe again without since`,
        { since, oldest: this.ring.oldest, latest, epoch: this.epoch },
      );
    }
    if (since < this.ring.oldest - 1) {
      throw new CorralError(
        'cursor_too_old',
        `cursor ${since} is no longer retained (oldest is ${this.ring.oldest}; ${this.retention} are kept, across restarts too); subscribe again without since`,
        { since, oldest: this.ring.oldest, latest, epoch: this.epoch },
      );
    }
  }

  dispose(): void {
    this.published.dispose();
  }
}
