import type { CorralEvent } from '../../protocol/methods/events.ts';

/** One retained event, with the pane's agent at publish time (what `agent:` filters match). */
export interface RetainedEvent {
  event: CorralEvent;
  agent: string | null;
}

/**
 * The last `capacity` events, addressed by cursor. Cursors start at 1 and only grow, so an evicted
 * cursor is never handed out again; memory is `capacity` entries whatever the rate.
 */
export class EventRing {
  private readonly slots: (RetainedEvent | undefined)[];
  private last: number;

  /** `after`: the cursor before the first one handed out (0: cursors start at 1). */
  constructor(
    readonly capacity: number,
    private readonly after = 0,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`event ring capacity must be a positive integer, not ${capacity}`);
    this.slots = new Array(capacity);
    this.last = after;
  }

  /** The last cursor handed out; `after` before the first event. */
  get latest(): number {
    return this.last;
  }

  /** The oldest cursor still retained; `latest + 1` while empty. */
  get oldest(): number {
    return Math.max(this.after + 1, this.last - this.capacity + 1);
  }

  nextCursor(): number {
    return this.last + 1;
  }

  push(entry: RetainedEvent): void {
    if (entry.event.cursor !== this.last + 1) throw new Error(`event cursor ${entry.event.cursor} out of order after ${this.last}`);
    this.last = entry.event.cursor;
    this.slots[(this.last - 1) % this.capacity] = entry;
  }

  /** The event at `cursor`, or undefined once evicted (or not yet published). */
  at(cursor: number): RetainedEvent | undefined {
    if (cursor < this.oldest || cursor > this.last) return undefined;
    return this.slots[(cursor - 1) % this.capacity];
  }
}
