import { Emitter } from '../base/emitter.ts';
import { SerialReads } from '../base/serial-reads.ts';
import { LiveAgents, LiveFeed, liveSourceOf, type AnyCorralEvent, type CorralClient, type CorralEvent, type LiveChange } from '../client/index.ts';
import type { AgentInfo } from '../protocol/methods/agent.ts';
import type { InboxItem } from '../protocol/methods/inbox.ts';
import type { PolicyStatus } from '../protocol/methods/policy.ts';
import { CardFlow } from './card-flow.ts';
import { TAIL_LINES, type BoardCard, type CardInbox } from './wire.ts';

/** How often a working agent's screen tail is read again, while some page shows its card. */
export const TAIL_REFRESH_MS = 2000;
/**
 * Tail refreshes in flight at once. A hundred working agents refreshed all at once queued 200 calls
 * ahead of the read a state change needs, and put seconds between the change and the page (bench/web.ts).
 */
const REFRESHES_IN_FLIGHT = 2;
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
  | { kind: 'attention'; item: InboxItem }
  | { kind: 'policy' };

/**
 * Every agent of one daemon as cards, for all pages: the agents are the client's live model
 * (src/client/live-agents.ts), kept by one event stream whose events carry each agent whole, so a
 * state change costs the daemon no call. A card is its agent, its inbox item, and the board's own
 * part, the screen's tail: read only for cards some page shows (watch), once per change of the
 * agent (one read at a time per pane: a burst costs the read in flight and one more), and for working
 * agents again every 2 s (a hundred of them read every 2 s took the daemon 50 reads a second,
 * bench/web.ts). With no page open the board reads nothing. An item entering the inbox is what pages
 * notify of, once per item and per pane and state per cooldown.
 */
export class Board {
  private readonly live = new LiveAgents();
  private readonly feed: LiveFeed;
  /** Each card's tail as last read, with the agent's revision, state and prompt it was read at. */
  private readonly tails = new Map<string, TailRead>();
  /** The cards as last told to pages: a card that would be told again unchanged is not. */
  private readonly told = new Map<string, string>();
  private readonly reads = new SerialReads((id) => this.readTail(id));
  private readonly refreshQueue = new Set<string>();
  private refreshing = 0;
  /** Cards whose tail a refresh changed, told to pages at once when the round is over. */
  private readonly refreshed = new Map<string, BoardCard>();
  private readonly changes = new Emitter<BoardChange>();
  readonly onChange = this.changes.event;
  /** A card's follow-ups merged into one message (card-flow.ts). */
  private readonly flow = new CardFlow((card) => this.changes.fire({ kind: 'card', card }));
  private readonly notified = new Map<string, number>(); // pane id and state -> when pages were last told
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private closed = false;
  /** The daemon's approval policy, as its last `policy.changed` event (or `policy.status`) said. */
  private policyStatus: PolicyStatus | null = null;
  /** Each page's cards on its screen, by pane id; null until it says (every card, then). */
  private readonly watching = new Map<object, ReadonlySet<string> | null>();

  constructor(
    private readonly client: CorralClient,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    // The policy rides on the same stream: its `policy.changed` events carry its status whole.
    const source = liveSourceOf(client);
    const policyTap = (event: AnyCorralEvent) => {
      if (event.kind === 'policy.changed') this.setPolicy((event as CorralEvent<'policy.changed'>).data.status);
    };
    this.feed = new LiveFeed({ ...source, subscribe: (onEvent) => source.subscribe((event) => (policyTap(event), onEvent(event))) }, this.live);
    this.live.onChange((change) => this.onLive(change));
    this.timer = setInterval(() => this.refreshTails(), TAIL_REFRESH_MS);
    this.timer.unref();
  }

  /** Resolves once the first whole board (snapshot and inbox) and the policy are known. */
  async start(): Promise<void> {
    await this.feed.start();
    await this.readPolicy();
  }

  policy(): PolicyStatus | null {
    return this.policyStatus;
  }

  /** `policy.status`, read at start and whenever the stream starts again (a daemon back may run another policy). */
  private async readPolicy(): Promise<void> {
    try {
      this.setPolicy(await this.client.call('policy.status', {}));
    } catch {
      // a daemon before 2.7, or gone again: the board shows no policy line
    }
  }

  private setPolicy(status: PolicyStatus): void {
    if (this.closed || JSON.stringify(status) === JSON.stringify(this.policyStatus)) return;
    this.policyStatus = status;
    this.changes.fire({ kind: 'policy' });
  }

  list(): BoardCard[] {
    return this.live.list().map((info) => this.card(info));
  }

  /** The pane id of a card's target (its id, or a name one card has), or null when no card answers to it. */
  paneIdOf(target: string): string | null {
    if (this.live.get(target) !== null) return target;
    const named = this.live.list().filter((info) => info.name === target);
    return named.length === 1 ? named[0]!.id : null;
  }

  /**
   * A page shows these cards now (null: every card): their tails are read when out of date, and again
   * while working. One no page showed before is read at once, as its tail may be old.
   */
  watch(viewer: object, ids: readonly string[] | null): void {
    const before = new Set(this.live.list().filter((info) => this.watched(info.id)).map((info) => info.id));
    this.watching.set(viewer, ids === null ? null : new Set(ids));
    for (const info of this.live.list()) {
      if (before.has(info.id) || !this.watched(info.id)) continue;
      if (this.tailOutOfDate(info)) void this.reads.request(info.id);
      else if (info.state === 'working') this.refreshQueue.add(info.id);
    }
    this.pumpRefreshes();
  }

  unwatch(viewer: object): void {
    this.watching.delete(viewer);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.refreshQueue.clear();
    this.feed.dispose();
    this.live.dispose();
    this.flow.dispose();
    this.changes.dispose();
  }

  private watched(id: string): boolean {
    for (const ids of this.watching.values()) if (ids === null || ids.has(id)) return true;
    return false;
  }

  private onLive(change: LiveChange): void {
    if (this.closed) return;
    switch (change.kind) {
      case 'reset':
        this.flow.clear();
        this.told.clear();
        for (const id of this.tails.keys()) if (this.live.get(id) === null) this.tails.delete(id);
        this.changes.fire({ kind: 'reset' });
        void this.readPolicy();
        for (const info of this.live.list()) if (this.watched(info.id) && this.tailOutOfDate(info)) void this.reads.request(info.id);
        return;
      case 'agent':
        this.put(this.card(change.info));
        if (this.watched(change.info.id) && this.tailOutOfDate(change.info)) void this.reads.request(change.info.id);
        return;
      case 'removed':
        // As the daemon's notifier does: a removed pane's cooldowns go with it.
        for (const state of ['blocked', 'done']) this.notified.delete(`${change.id}\0${state}`);
        this.tails.delete(change.id);
        this.told.delete(change.id);
        this.flow.drop(change.id);
        this.changes.fire({ kind: 'removed', id: change.id });
        return;
      case 'inbox': {
        const info = this.live.get(change.paneId);
        if (info) this.put(this.card(info));
        if (change.added) this.attention(change.added);
        return;
      }
      case 'incomplete':
        return; // the feed reads it (a daemon before 2.7), and its agent change follows
    }
  }

  /** A card: the live agent, its inbox item and the tail last read (empty until a page showed it). */
  private card(info: AgentInfo): BoardCard {
    return { info, tail: this.tails.get(info.id)?.lines ?? [], inbox: cardInbox(this.live.inbox.of(info.id)) };
  }

  /**
   * The tail was read at another revision, state or prompt of the agent (or never). The prompt changes
   * under one revision: a dialog drawn further (first read without its footer, as output split across
   * reads leaves it) or redrawn (Claude Code's ctrl+e) keeps the agent blocked, and its tail showed the
   * dialog as first read until the agent left it.
   */
  private tailOutOfDate(info: AgentInfo): boolean {
    const tail = this.tails.get(info.id);
    return tail === undefined || tail.revision !== info.revision || tail.state !== info.state || tail.prompt !== promptOf(info);
  }

  /**
   * Pages notify of an item entering the inbox, unless one of the same pane and state did within the
   * cooldown; a budget's 80% and 100% are told apart (docs/usage.md, "Budgets").
   */
  private attention(item: InboxItem): void {
    const key = `${item.pane.id}\0${item.state}${item.budget?.percent ?? ''}`;
    const now = this.now();
    const last = this.notified.get(key);
    if (last !== undefined && now - last < NOTIFY_COOLDOWN_MS) return;
    this.notified.set(key, now);
    this.changes.fire({ kind: 'attention', item });
  }

  /** Reads the pane's tail at its agent as known now (one read at a time per pane: SerialReads). */
  private async readTail(id: string): Promise<void> {
    const info = this.live.get(id);
    if (this.closed || info === null) return;
    try {
      const lines = await this.tail(info);
      if (this.closed || this.live.get(id) === null) return;
      this.tails.set(id, tailRead(lines, info));
      this.put(this.card(this.live.get(id)!));
    } catch {
      // the pane went away meanwhile: its removal event says so
    }
  }

  /** A card as it was last told is told to no page again. */
  private put(card: BoardCard): void {
    const text = JSON.stringify(card);
    if (this.told.get(card.info.id) === text) return;
    this.told.set(card.info.id, text);
    this.flow.put(card);
  }

  /**
   * The last lines of the screen a person would look at: a blocked agent's dialog as drawn, else what
   * it drew above its composer box (the working line, its last output), never the box itself.
   */
  private async tail(info: AgentInfo): Promise<string[]> {
    const screen = await this.client.call('agent.read', { target: info.id, source: 'screen', ...(info.state === 'blocked' ? {} : { region: TAIL_REGION }) });
    return lastLinesWithText(screen.text, TAIL_LINES);
  }

  /** Queues the tails of working agents that some page shows, read a few at a time behind the reads changes ask for. */
  private refreshTails(): void {
    if (this.watching.size === 0) return;
    for (const info of this.live.list()) if (info.state === 'working' && this.watched(info.id)) this.refreshQueue.add(info.id);
    this.pumpRefreshes();
  }

  private pumpRefreshes(): void {
    while (this.refreshing < REFRESHES_IN_FLIGHT && this.refreshQueue.size > 0 && !this.closed) {
      const id = this.refreshQueue.values().next().value!;
      this.refreshQueue.delete(id);
      if (this.reads.has(id)) continue; // a read for a change is on its way
      if (!this.watched(id)) continue; // queued before its page scrolled it away or closed: no page shows it now
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
   * working agent (a hundred of them kept ten pages' renderers busy, bench/web.ts). A card that changed
   * again meanwhile is left out: its newer card was told already.
   */
  private flushTails(): void {
    const cards = [...this.refreshed.values()].filter((card) => this.told.get(card.info.id) === JSON.stringify(card));
    this.refreshed.clear();
    if (cards.length > 0 && !this.closed) this.changes.fire({ kind: 'tails', cards });
  }

  /** Reads the tail of a working agent again: the rest of its card changes only with events. */
  private async refreshTail(id: string): Promise<void> {
    const info = this.live.get(id);
    const before = this.tails.get(id);
    if (info === null || info.state !== 'working') return;
    const lines = await this.tail(info).catch(() => null);
    const now = this.live.get(id);
    if (lines === null || this.closed || now === null || now.revision !== info.revision || lines.join('\n') === before?.lines.join('\n')) return;
    this.tails.set(id, tailRead(lines, info));
    const card = this.card(now);
    this.told.set(id, JSON.stringify(card));
    this.refreshed.set(id, card);
  }
}

/** A tail as read, and the agent as it was when the read began. */
interface TailRead {
  lines: string[];
  revision: number;
  state: string;
  prompt: string;
}

function tailRead(lines: string[], info: AgentInfo): TailRead {
  return { lines, revision: info.revision, state: info.state, prompt: promptOf(info) };
}

/** The agent's prompt as one string, to tell whether the dialog changed since a tail was read. */
function promptOf(info: AgentInfo): string {
  return info.prompt === undefined ? '' : JSON.stringify(info.prompt);
}

function cardInbox(item: InboxItem | null): CardInbox | null {
  return item === null || item.state === 'budget' ? null : { id: item.id, state: item.state, ts: item.ts };
}

/** The last `count` lines that hold more than spaces, trailing spaces cut. */
export function lastLinesWithText(text: string, count: number): string[] {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 0 && kept.length < count; i--) if (lines[i] !== '') kept.unshift(lines[i]!);
  return kept;
}
