import { Emitter } from '../base/emitter.ts';
import { SerialReads } from '../base/serial-reads.ts';
import { InboxView, type CorralClient, type Subscription } from '../client/index.ts';
import type { AnyCorralEvent, CorralEvent } from '../protocol/methods/events.ts';
import type { AgentInfo } from '../protocol/methods/agent.ts';
import type { InboxItem } from '../protocol/methods/inbox.ts';
import { CardFlow } from './card-flow.ts';
import { TAIL_LINES, type BoardCard, type CardInbox } from './wire.ts';

/** How often a working agent's screen tail is read again, while some page shows its card. */
export const TAIL_REFRESH_MS = 2000;
/**
 * Tail refreshes in flight at once. A hundred working agents refreshed all at once queued 200 calls
 * ahead of the read a state change needs, and put seconds between the change and the page (bench/web.ts).
 */
const REFRESHES_IN_FLIGHT = 2;
/** How long the board waits before it subscribes again after its stream ended. */
const RESUBSCRIBE_MS = 500;
/**
 * A page notifies of a pane and state at most once in this long: the daemon's default
 * `[notify] cooldown_ms` (docs/config.md), so a page and the notify command agree.
 */
export const NOTIFY_COOLDOWN_MS = 30_000;
/** Where a card's tail is cut from while the agent is not blocked: above its composer box (docs/protocol.md, `agent.read`). */
const TAIL_REGION = 'above_prompt_box';

export type BoardChange =
  | { kind: 'card'; card: BoardCard }
  | { kind: 'tails'; cards: BoardCard[] }
  | { kind: 'removed'; id: string }
  | { kind: 'reset' }
  | { kind: 'attention'; item: InboxItem };

/**
 * Every agent of one daemon as cards, kept live from one event stream shared by all pages: an event
 * about a pane reads that pane's card again (agent.get and the screen's tail), one read at a time per
 * pane, so a burst of events costs one read after the one in flight; a new state goes out at once,
 * from its event. Working agents' tails are read again only for the cards some page shows
 * (watch): a hundred of them read every 2 s took the daemon 50 reads a second (bench/web.ts). The attention inbox rides on
 * the same stream (InboxView): a card says whether its agent has an unacknowledged item, and an item
 * entering the inbox is what pages notify of, once per item and per pane and state per cooldown.
 */
export class Board {
  private readonly cards = new Map<string, BoardCard>();
  private readonly reads = new SerialReads((id) => this.read(id));
  private readonly refreshQueue = new Set<string>();
  private refreshing = 0;
  /** Cards whose tail a refresh changed, told to pages at once when the round is over. */
  private readonly refreshed = new Map<string, BoardCard>();
  private readonly changes = new Emitter<BoardChange>();
  readonly onChange = this.changes.event;
  /** A card's follow-ups merged into one message (card-flow.ts). */
  private readonly flow = new CardFlow((card) => this.changes.fire({ kind: 'card', card }));
  private subscription: Subscription | null = null;
  private readonly inbox = new InboxView();
  private readonly notified = new Map<string, number>(); // pane id and state -> when pages were last told
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private closed = false;
  /** Each page's cards on its screen, by pane id; null until it says (every card, then). */
  private readonly watching = new Map<object, ReadonlySet<string> | null>();

  constructor(
    private readonly client: CorralClient,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.refreshTails(), TAIL_REFRESH_MS);
    this.timer.unref();
  }

  async start(): Promise<void> {
    this.inbox.clear();
    const subscription = await this.client.subscribe({}, (event) => this.onEvent(event));
    this.subscription = subscription;
    this.cards.clear();
    // Listed after subscribing: an item acknowledged meanwhile is in both, and InboxView keeps it out.
    this.inbox.applyList((await this.client.call('inbox.list', {})).items);
    await Promise.all(subscription.snapshot.agents.map((info) => this.reads.request(info.id)));
    this.flow.clear();
    this.changes.fire({ kind: 'reset' });
    subscription.ended.then(
      () => undefined,
      () => this.restart(),
    );
  }

  list(): BoardCard[] {
    return [...this.cards.values()];
  }

  /**
   * A page shows these cards now (null: every card): their tails are read again while working. One no
   * page showed before is read at once, as its tail may be old.
   */
  watch(viewer: object, ids: readonly string[] | null): void {
    const fresh = ids === null ? [] : ids.filter((id) => !this.watched(id));
    this.watching.set(viewer, ids === null ? null : new Set(ids));
    for (const id of fresh) if (this.cards.get(id)?.info.state === 'working') this.refreshQueue.add(id);
    if (fresh.length > 0) this.pumpRefreshes();
  }

  unwatch(viewer: object): void {
    this.watching.delete(viewer);
  }

  private watched(id: string): boolean {
    for (const ids of this.watching.values()) if (ids === null || ids.has(id)) return true;
    return false;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.refreshQueue.clear();
    this.subscription?.close();
    this.flow.dispose();
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
    const inboxChanged = this.inbox.apply(event) !== null;
    if (event.kind === 'pane.removed' || event.kind === 'agent.released') {
      // As the daemon's notifier does: a removed pane's cooldowns go with it.
      if (event.kind === 'pane.removed') for (const state of ['blocked', 'done']) this.notified.delete(`${id}\0${state}`);
      this.remove(id);
      return;
    }
    if (event.kind === 'inbox.added' || event.kind === 'inbox.acknowledged') {
      const card = this.cards.get(id);
      if (card && inboxChanged) this.put({ ...card, inbox: cardInbox(this.inbox.of(id)) });
      if (event.kind === 'inbox.added' && inboxChanged) this.attention(event.data.item);
      return;
    }
    if (event.kind === 'pane.created') return; // no agent yet: agent.detected follows when there is one
    if (event.kind === 'agent.stateChanged') this.tellState(event);
    this.schedule(id);
  }

  /** Pages notify of an item entering the inbox, unless one of the same pane and state did within the cooldown. */
  private attention(item: InboxItem): void {
    const key = `${item.pane.id}\0${item.state}`;
    const now = this.now();
    const last = this.notified.get(key);
    if (last !== undefined && now - last < NOTIFY_COOLDOWN_MS) return;
    this.notified.set(key, now);
    this.changes.fire({ kind: 'attention', item });
  }

  /**
   * The new state goes to pages from the event itself: the read that follows (agent.get, then the
   * tail) may wait behind others on the daemon's connection. That read fills in the rest.
   */
  private tellState(event: CorralEvent<'agent.stateChanged'>): void {
    const card = this.cards.get(event.pane!.id);
    if (card === undefined || event.data.revision <= card.info.revision) return;
    const { agent, to, rule, source, seen, revision, prompt } = event.data;
    const { prompt: _before, ...info } = card.info;
    // done is idle not yet seen (src/arbiter/pane-arbiter.ts, displayed).
    const rawState = to === 'done' ? 'idle' : to;
    this.put({ ...card, info: { ...info, agent, state: to, rawState, rule, source, seen, revision, stateSince: event.ts, ...(prompt ? { prompt } : {}) } });
  }

  private schedule(id: string): void {
    void this.reads.request(id);
  }

  /** Reads the pane's card (one read at a time per pane: SerialReads). */
  private async read(id: string): Promise<void> {
    if (this.closed) return;
    try {
      const info = await this.client.call('agent.get', { target: id });
      if (this.closed) return;
      if (info.agent === null) return this.remove(id);
      // Older than the card (read before a state change its event told): the read that change asked for follows.
      const before = this.cards.get(id);
      if (before !== undefined && info.revision < before.info.revision) return;
      // A new state is told at once, with the tail it had; its own tail follows (a second read).
      if (before !== undefined && before.info.state !== info.state) this.put({ info, tail: before.tail, inbox: cardInbox(this.inbox.of(id)) });
      const tail = await this.tail(info);
      if (this.closed) return;
      this.put({ info, tail, inbox: cardInbox(this.inbox.of(id)) });
    } catch {
      // the pane went away meanwhile: its removal event says so
    }
  }

  /** A card read again as it was (most reads after an event) is kept and told to no page. */
  private put(card: BoardCard): void {
    const before = this.cards.get(card.info.id);
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(card)) return;
    this.cards.set(card.info.id, card);
    this.flow.put(card);
  }

  private remove(id: string): void {
    this.flow.drop(id);
    if (this.cards.delete(id)) this.changes.fire({ kind: 'removed', id });
  }

  /**
   * The last lines of the screen a person would look at: a blocked agent's dialog as drawn, else what
   * it drew above its composer box (the working line, its last output), never the box itself.
   */
  private async tail(info: AgentInfo): Promise<string[]> {
    const screen = await this.client.call('agent.read', { target: info.id, source: 'screen', ...(info.state === 'blocked' ? {} : { region: TAIL_REGION }) });
    return lastLinesWithText(screen.text, TAIL_LINES);
  }

  /** Queues the tails of working agents that some page shows, read a few at a time behind the reads events ask for. */
  private refreshTails(): void {
    if (this.watching.size === 0) return;
    for (const card of this.cards.values()) if (card.info.state === 'working' && this.watched(card.info.id)) this.refreshQueue.add(card.info.id);
    this.pumpRefreshes();
  }

  private pumpRefreshes(): void {
    while (this.refreshing < REFRESHES_IN_FLIGHT && this.refreshQueue.size > 0 && !this.closed) {
      const id = this.refreshQueue.values().next().value!;
      this.refreshQueue.delete(id);
      if (this.reads.has(id)) continue; // a read for an event is on its way, tail included
      this.refreshing++;
      void this.refreshTail(id).finally(() => {
        this.refreshing--;
        this.pumpRefreshes();
      });
    }
    if (this.refreshing === 0 && this.refreshQueue.size === 0) this.flushTails();
  }

  /**
   * One message for a whole round of refreshed tails: a page then draws once per round, not once per
   * working agent (a hundred of them kept ten pages' renderers busy, bench/web.ts). A card an event
   * read again meanwhile is left out: its newer card was told already.
   */
  private flushTails(): void {
    const cards = [...this.refreshed.values()].filter((card) => this.cards.get(card.info.id) === card);
    this.refreshed.clear();
    if (cards.length > 0 && !this.closed) this.changes.fire({ kind: 'tails', cards });
  }

  /** Reads the tail alone: the rest of the card changes only with events, which read it whole. */
  private async refreshTail(id: string): Promise<void> {
    const card = this.cards.get(id);
    if (card === undefined || card.info.state !== 'working') return;
    const tail = await this.tail(card.info).catch(() => null);
    if (tail === null || this.closed || this.cards.get(id) !== card || tail.join('\n') === card.tail.join('\n')) return;
    const next = { ...card, tail };
    this.cards.set(id, next);
    this.refreshed.set(id, next);
  }
}

function cardInbox(item: InboxItem | null): CardInbox | null {
  return item === null ? null : { id: item.id, state: item.state, ts: item.ts };
}

/** The last `count` lines that hold more than spaces, trailing spaces cut. */
export function lastLinesWithText(text: string, count: number): string[] {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 0 && kept.length < count; i--) if (lines[i] !== '') kept.unshift(lines[i]!);
  return kept;
}
