import type { BoardCard } from './wire.ts';

/**
 * How long after a card went to pages its follow-ups (the inbox item, the card read again with its
 * tail, a second read) are held and merged into one message. Each message was a frame of its own in
 * every page: four of them per state change (bench/probes/web-trial-frames.ts).
 */
export const FOLLOW_UP_MS = 30;

/**
 * A card's updates on their way to pages: the first in a while, and a new state always, go at once
 * (in the same turn's batch: events read together merge); the updates that follow within
 * FOLLOW_UP_MS go as one, the latest card.
 */
export class CardFlow {
  private readonly pending = new Map<string, BoardCard>();
  private readonly sent = new Map<string, { state: string; at: number }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private immediate: NodeJS.Immediate | null = null;
  private readonly soon = new Set<string>();

  constructor(
    private readonly send: (card: BoardCard) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  put(card: BoardCard): void {
    const id = card.info.id;
    this.pending.set(id, card);
    if (this.soon.has(id) || this.timers.has(id) && this.sent.get(id)?.state === card.info.state) return;
    const last = this.sent.get(id);
    const wait = last === undefined || last.state !== card.info.state ? 0 : last.at + FOLLOW_UP_MS - this.now();
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(id);
        this.flush(id);
      }, wait);
      timer.unref();
      this.timers.set(id, timer);
      return;
    }
    this.cancel(id);
    this.soon.add(id);
    this.immediate ??= setImmediate(() => {
      this.immediate = null;
      const ids = [...this.soon];
      this.soon.clear();
      for (const one of ids) this.flush(one);
    });
  }

  /** The card went away, or the whole board is told again: nothing of it is to be sent. */
  drop(id: string): void {
    this.pending.delete(id);
    this.sent.delete(id);
    this.soon.delete(id);
    this.cancel(id);
  }

  clear(): void {
    for (const id of [...this.pending.keys(), ...this.timers.keys()]) this.drop(id);
  }

  dispose(): void {
    this.clear();
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.immediate = null;
  }

  private cancel(id: string): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(id);
  }

  private flush(id: string): void {
    const card = this.pending.get(id);
    if (card === undefined) return;
    this.pending.delete(id);
    this.sent.set(id, { state: card.info.state, at: this.now() });
    this.send(card);
  }
}
