import { Emitter } from '../base/emitter.ts';
import type { CorralClient, Subscription } from '../client/index.ts';
import type { AnyCorralEvent } from '../protocol/methods/events.ts';
import type { AgentInfo } from '../protocol/methods/agent.ts';
import { TAIL_LINES, type BoardCard } from './wire.ts';

/** How often a working agent's screen tail is read again, while some page watches. */
export const TAIL_REFRESH_MS = 2000;
/** How long the board waits before it subscribes again after its stream ended. */
const RESUBSCRIBE_MS = 500;

export type BoardChange = { kind: 'card'; card: BoardCard } | { kind: 'removed'; id: string } | { kind: 'reset' } | { kind: 'attention'; info: AgentInfo; state: 'blocked' | 'done' };

/**
 * Every agent of one daemon as cards, kept live from one event stream shared by all pages: an event
 * about a pane reads that pane's card again (agent.get and the screen's tail), one read at a time per
 * pane, so a burst of events costs one read after the one in flight.
 */
export class Board {
  private readonly cards = new Map<string, BoardCard>();
  private readonly reading = new Map<string, boolean>(); // pane id -> read again after this one
  private readonly changes = new Emitter<BoardChange>();
  readonly onChange = this.changes.event;
  private subscription: Subscription | null = null;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  watchers = 0;

  constructor(private readonly client: CorralClient) {
    this.timer = setInterval(() => this.refreshTails(), TAIL_REFRESH_MS);
    this.timer.unref();
  }

  async start(): Promise<void> {
    const subscription = await this.client.subscribe({}, (event) => this.onEvent(event));
    this.subscription = subscription;
    this.cards.clear();
    await Promise.all(subscription.snapshot.agents.map((info) => this.read(info.id)));
    this.changes.fire({ kind: 'reset' });
    subscription.ended.then(
      () => undefined,
      () => this.restart(),
    );
  }

  list(): BoardCard[] {
    return [...this.cards.values()];
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.subscription?.close();
    this.changes.dispose();
  }

  /** The stream could not resume (the daemon came back with another epoch): start over from a snapshot. */
  private restart(): void {
    if (this.closed) return;
    setTimeout(() => {
      if (!this.closed) this.start().catch(() => this.restart());
    }, RESUBSCRIBE_MS).unref();
  }

  private onEvent(event: AnyCorralEvent): void {
    if (event.pane === null) return;
    const id = event.pane.id;
    if (event.kind === 'pane.removed' || event.kind === 'agent.released') {
      if (this.cards.delete(id)) this.changes.fire({ kind: 'removed', id });
      return;
    }
    if (event.kind === 'agent.attention') {
      const card = this.cards.get(id);
      if (card) this.changes.fire({ kind: 'attention', info: card.info, state: event.data.state });
    }
    if (event.kind === 'pane.created') return; // no agent yet: agent.detected follows when there is one
    this.schedule(id);
  }

  private schedule(id: string): void {
    if (this.reading.has(id)) {
      this.reading.set(id, true);
      return;
    }
    void this.read(id);
  }

  /** Reads the pane's card; the pane is read again once more if an event came in meanwhile. */
  private async read(id: string): Promise<void> {
    this.reading.set(id, false);
    try {
      const info = await this.client.call('agent.get', { target: id });
      const tail = await this.tail(id);
      if (this.closed) return;
      if (info.agent === null) {
        if (this.cards.delete(id)) this.changes.fire({ kind: 'removed', id });
      } else {
        const card = { info, tail };
        this.cards.set(id, card);
        this.changes.fire({ kind: 'card', card });
      }
    } catch {
      // the pane went away meanwhile: its removal event says so
    } finally {
      const again = this.reading.get(id);
      this.reading.delete(id);
      if (again && !this.closed) void this.read(id);
    }
  }

  private async tail(id: string): Promise<string[]> {
    const screen = await this.client.call('agent.read', { target: id, source: 'screen' });
    return lastLinesWithText(screen.text, TAIL_LINES);
  }

  private refreshTails(): void {
    if (this.watchers === 0) return;
    for (const card of this.cards.values()) if (card.info.state === 'working') this.schedule(card.info.id);
  }
}

/** The last `count` lines that hold more than spaces, trailing spaces cut. */
export function lastLinesWithText(text: string, count: number): string[] {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 0 && kept.length < count; i--) if (lines[i] !== '') kept.unshift(lines[i]!);
  return kept;
}
