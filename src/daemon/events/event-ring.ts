import type { CorralEvent } from '../../protocol/methods/events.ts';

/** One retained event, with the pane's agent at publish time (what `agent:` filters match). */
export interface RetainedEvent {
  event: CorralEvent;
  agent: string | null;
  /** The event's size as a JSON line: what the ring's byte bound and a read's reply bound count. */
  bytes: number;
}

/**
 * The ring's bound in bytes besides its count: 10,000 ordinary events take a few MiB, so only a
 * burst of large events reaches it, and then the oldest go first.
 */
export const MAX_EVENT_RING_BYTES = 32 << 20;

/**
 * The last events, at most `capacity` of them and at most `maxBytes` together (the newest event is
 * always kept), addressed by cursor. Cursors start at 1 and only grow, so an evicted cursor is never
 * handed out again; memory is bounded whatever the rate or the size of events.
 */
export class EventRing {
  private readonly slots: (RetainedEvent | undefined)[];
  private last: number;
  private first: number;
  private bytes = 0;

  /** `after`: the cursor before the first one handed out (0: cursors start at 1). */
  constructor(
    readonly capacity: number,
    after = 0,
    readonly maxBytes = MAX_EVENT_RING_BYTES,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`event ring capacity must be a positive integer, not ${capacity}`);
    if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new Error(`event ring bytes must be a positive integer, not ${maxBytes}`);
    this.slots = new Array(capacity);
    this.last = after;
    this.first = after + 1;
  }

  /** The last cursor handed out; `after` before the first event. */
  get latest(): number {
    return this.last;
  }

  /** The oldest cursor still retained; `latest + 1` while empty. */
  get oldest(): number {
    return this.first;
  }

  /** Bytes the retained events take as JSON lines. */
  get retainedBytes(): number {
    return this.bytes;
  }

  nextCursor(): number {
    return this.last + 1;
  }

  push(entry: RetainedEvent): void {
    if (entry.event.cursor !== this.last + 1) throw new Error(`event cursor ${entry.event.cursor} out of order after ${this.last}`);
    if (this.last - this.first + 1 === this.capacity) this.evictOldest();
    this.last = entry.event.cursor;
    this.slots[(this.last - 1) % this.capacity] = entry;
    this.bytes += entry.bytes;
    while (this.bytes > this.maxBytes && this.first < this.last) this.evictOldest();
  }

  /** The event at `cursor`, or undefined once evicted (or not yet published). */
  at(cursor: number): RetainedEvent | undefined {
    if (cursor < this.first || cursor > this.last) return undefined;
    return this.slots[(cursor - 1) % this.capacity];
  }

  private evictOldest(): void {
    const index = (this.first - 1) % this.capacity;
    this.bytes -= this.slots[index]?.bytes ?? 0;
    this.slots[index] = undefined;
    this.first += 1;
  }
}
