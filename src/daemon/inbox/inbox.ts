import { INBOX_STATES, MAX_INBOX_ITEMS, failureText, type InboxItem } from '../../protocol/methods/inbox.ts';
import type { CorralEvent } from '../../protocol/methods/events.ts';
import type { AgentPrompt } from '../../protocol/prompt.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import { Emitter } from '../../base/emitter.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { Logger } from '../logger.ts';
import { readPrivateFile, setAsidePrivateFile, writePrivateFile } from '../private-file.ts';
import { failureOf } from './pane-failure.ts';

const INBOX_FILE_VERSION = 1;

interface StoredInbox {
  version: number;
  nextId: number;
  /** The cursor of the last attention event taken in: an event at or below it is never taken twice. */
  lastCursor: number;
  items: InboxItem[];
}

/**
 * The attention inbox: each `agent.attention` event becomes an item, and so does the failed exit of an
 * agent's pane (`pane.exited`, not status 0), one per pane (a newer one of the same pane replaces it), kept in a file of the state folder until acknowledged. `onAdded` fires once
 * per item, when it enters: notifications hang on it, so nothing is notified twice, across restarts too.
 * An item is acknowledged by `inbox.ack`, by focusing or answering its pane, when its pane leaves the
 * item's state for another known one, and when its pane is removed.
 */
export class Inbox implements Disposable {
  private items: InboxItem[] = [];
  private nextId = 1;
  private lastCursor = 0;
  private scheduled: NodeJS.Immediate | null = null;
  private readonly added: Emitter<InboxItem>;
  private readonly subscriptions = new DisposableStore();
  /** The last agent each pane's events named, by pane id: who failed when the pane exits. */
  private readonly lastAgent = new Map<string, string>();

  constructor(
    private readonly path: string,
    private readonly hub: EventHub,
    agents: AgentService,
    private readonly log: Logger,
    /** Whether a pane is being removed: an exit Corral caused (a kill's SIGHUP) is no failure of its agent. */
    private readonly removing: (paneId: string) => boolean = () => false,
  ) {
    this.added = new Emitter((error) => log.error({ err: error }, 'inbox listener failed'));
    this.load();
    this.subscriptions.add(
      hub.onPublish(({ event, agent }) => {
        if (agent !== null && event.pane) this.lastAgent.set(event.pane.id, agent);
        if (event.kind === 'agent.attention') this.take(event as CorralEvent<'agent.attention'>);
        else if (event.kind === 'budget.crossed') this.takeBudget(event as CorralEvent<'budget.crossed'>, agent);
        // Its agent may be released before the exit is told (docs/events.md): the pane's last agent is the one that ended.
        else if (event.kind === 'pane.exited') this.takeFailure(event as CorralEvent<'pane.exited'>, event.pane ? this.lastAgent.get(event.pane.id) ?? null : null);
        else if (event.kind === 'agent.promptChanged' && event.pane) this.reprompt(event.pane.id, (event as CorralEvent<'agent.promptChanged'>).data.prompt);
        // Told by pane.removed itself: no event may follow it for that pane.
        else if (event.kind === 'pane.removed' && event.pane) {
          this.lastAgent.delete(event.pane.id);
          this.drop(this.items.filter((item) => item.pane.id === event.pane!.id), false);
        }
      }),
    );
    this.subscriptions.add(
      agents.onChange(({ pane, record, extrasOnly }) => {
        if (extrasOnly) return;
        const { before, after } = record;
        // Leaving blocked (answered) or done (seen, prompted) for a known state is acting on it; the
        // unknown of a pane being recovered is not.
        if (after.displayed === 'unknown' || before.displayed === after.displayed) return;
        if (before.displayed === 'blocked' || before.displayed === 'done') this.acknowledgePane(pane.id, before.displayed);
      }),
    );
  }

  onAdded(listener: (item: InboxItem) => void): Disposable {
    return this.added.event(listener);
  }

  list(): InboxItem[] {
    return [...this.items];
  }

  /** Acknowledges the items named (all with `all`); answers the ids acknowledged, unknown ids left out. */
  acknowledge(ids: readonly number[] | 'all'): number[] {
    return this.drop(ids === 'all' ? this.items : this.items.filter((item) => ids.includes(item.id)), true);
  }

  /** Acknowledges every item of the pane (of one state only, when given). */
  acknowledgePane(paneId: string, state?: InboxItem['state']): number[] {
    return this.acknowledge(this.items.filter((item) => item.pane.id === paneId && (state === undefined || item.state === state)).map((item) => item.id));
  }

  /** Writes now if a write is due (the daemon is stopping). */
  flush(): void {
    if (this.scheduled !== null) clearImmediate(this.scheduled);
    this.scheduled = null;
    try {
      writePrivateFile(this.path, { version: INBOX_FILE_VERSION, nextId: this.nextId, lastCursor: this.lastCursor, items: this.items } satisfies StoredInbox);
    } catch (error) {
      this.log.error({ file: this.path, err: error }, 'cannot write the inbox file');
    }
  }

  dispose(): void {
    this.subscriptions.dispose();
    if (this.scheduled !== null) this.flush();
    this.added.dispose();
  }

  private take(event: CorralEvent<'agent.attention'>): void {
    if (event.cursor <= this.lastCursor || event.pane === null) return;
    this.lastCursor = event.cursor;
    const item: InboxItem = {
      id: this.nextId++,
      pane: { id: event.pane.id, name: event.pane.name },
      agent: event.data.agent,
      state: event.data.state,
      seq: event.data.seq,
      cursor: event.cursor,
      ts: event.ts,
      title: event.data.title,
      message: event.data.message,
      prompt: event.data.prompt ?? null,
    };
    // One per pane: the pane's earlier item was of a turn that is over (a budget's item stands apart).
    this.items = this.items.filter((other) => other.pane.id !== item.pane.id || other.state === 'budget');
    this.enter(item);
  }

  /**
   * An agent's pane that exited with a non-zero status or by a signal is a `failed` item: it replaces
   * the pane's blocked or done item (that turn is over). A clean exit, an exit of a pane being removed
   * (killed by Corral), or a pane no agent ran in, is none.
   */
  private takeFailure(event: CorralEvent<'pane.exited'>, agent: string | null): void {
    if (event.cursor <= this.lastCursor || event.pane === null || agent === null || this.removing(event.pane.id)) return;
    const failure = failureOf(event.data.exitCode, event.data.signal);
    if (failure === null) return;
    this.lastCursor = event.cursor;
    const item: InboxItem = {
      id: this.nextId++,
      pane: { id: event.pane.id, name: event.pane.name },
      agent,
      state: 'failed',
      seq: event.cursor,
      cursor: event.cursor,
      ts: event.ts,
      title: null,
      message: `${agent} failed (${failureText(failure)})`,
      prompt: null,
      exit: failure,
    };
    this.items = this.items.filter((other) => other.pane.id !== item.pane.id || other.state === 'budget');
    this.enter(item);
  }

  /** A budget crossing (daemon/usage/) is an item of its own, beside the pane's attention item; a newer crossing replaces it. */
  private takeBudget(event: CorralEvent<'budget.crossed'>, agent: string | null): void {
    if (event.cursor <= this.lastCursor || event.pane === null) return;
    this.lastCursor = event.cursor;
    const { crossing } = event.data;
    const spent = crossing.unit === 'money' ? crossing.spent.toFixed(2) : String(crossing.spent);
    const item: InboxItem = {
      id: this.nextId++,
      pane: { id: event.pane.id, name: event.pane.name },
      agent,
      state: 'budget',
      seq: event.cursor,
      cursor: event.cursor,
      ts: event.ts,
      title: null,
      message: `budget ${crossing.budget}: ${crossing.percent}% spent (${spent} of ${crossing.limit} ${crossing.unit === 'money' ? 'in money' : 'tokens'} this ${crossing.period})`,
      prompt: null,
      budget: crossing,
    };
    this.items = this.items.filter((other) => other.pane.id !== item.pane.id || other.state !== 'budget');
    this.enter(item);
  }

  private enter(item: InboxItem): void {
    this.items.push(item);
    const over = this.items.length > MAX_INBOX_ITEMS ? this.items.slice(0, this.items.length - MAX_INBOX_ITEMS) : [];
    if (over.length > 0) this.drop(over, true);
    // Written before anyone is told, so an item notified is an item the next daemon still has.
    this.flush();
    this.hub.publish('inbox.added', item.pane, { item }, item.agent);
    this.added.fire(item);
  }

  /** A blocked item follows its pane's prompt: a form drawn in pieces, or its next question. */
  private reprompt(paneId: string, prompt: AgentPrompt): void {
    const item = this.items.find((other) => other.pane.id === paneId && other.state === 'blocked');
    if (!item) return;
    item.prompt = prompt;
    this.schedule();
  }

  /** Takes items out; with `announce`, one `inbox.acknowledged` per pane says which. */
  private drop(gone: readonly InboxItem[], announce: boolean): number[] {
    if (gone.length === 0) return [];
    const set = new Set(gone);
    this.items = this.items.filter((item) => !set.has(item));
    this.schedule();
    if (announce) {
      const byPane = new Map<string, InboxItem[]>();
      for (const item of gone) byPane.set(item.pane.id, [...(byPane.get(item.pane.id) ?? []), item]);
      for (const items of byPane.values()) this.hub.publish('inbox.acknowledged', items[0]!.pane, { ids: items.map((item) => item.id) }, items[0]!.agent);
    }
    return gone.map((item) => item.id);
  }

  private schedule(): void {
    if (this.scheduled !== null) return;
    this.scheduled = setImmediate(() => this.flush());
  }

  private load(): void {
    const read = readPrivateFile(this.path);
    if (read.status === 'absent') return;
    if (read.status === 'unusable') return this.setAside(read.reason, read.detail);
    const stored = read.value as Partial<StoredInbox> | null;
    if (stored === null || typeof stored !== 'object' || stored.version !== INBOX_FILE_VERSION || !Array.isArray(stored.items) || !Number.isSafeInteger(stored.nextId) || !Number.isSafeInteger(stored.lastCursor)) {
      return this.setAside('wrong_shape', `${this.path}: of another version or shape`);
    }
    this.items = stored.items.filter(isItem).slice(-MAX_INBOX_ITEMS);
    this.nextId = Math.max(stored.nextId!, ...this.items.map((item) => item.id + 1));
    this.lastCursor = stored.lastCursor!;
  }

  /** An inbox file that cannot be used is moved aside as the pane state file is, never overwritten. */
  private setAside(reason: string, detail: string): void {
    try {
      const movedTo = setAsidePrivateFile(this.path);
      this.log.warn({ file: this.path, movedTo, reason, detail }, 'inbox file unusable: moved aside, starting with an empty inbox');
    } catch (error) {
      this.log.error({ file: this.path, reason, detail, err: error }, 'inbox file unusable and cannot be moved aside: starting with an empty inbox');
    }
  }
}

function isItem(value: unknown): value is InboxItem {
  const item = value as Partial<InboxItem> | null;
  return (
    typeof item === 'object' && item !== null && Number.isSafeInteger(item.id) && typeof item.pane?.id === 'string' && (INBOX_STATES as readonly unknown[]).includes(item.state) && Number.isSafeInteger(item.seq) && Number.isSafeInteger(item.cursor)
  );
}
