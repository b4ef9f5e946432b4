import type { AnyCorralEvent } from '../protocol/methods/events.ts';
import type { InboxItem } from '../protocol/methods/inbox.ts';

/**
 * A client's copy of the daemon's attention inbox (docs/events.md, "The attention inbox"): listed
 * once, then kept by the `inbox.added` and `inbox.acknowledged` events, with no polling. The list may
 * be read on another connection than the events, so it is applied as a set, not a sequence: an id
 * once acknowledged never comes back, and a pane keeps only its newest item. Pure: its owner feeds it.
 */
export class InboxView {
  private readonly byPane = new Map<string, InboxItem>();
  /** Each pane's budget item (daemon/usage/), which stands apart from its attention item. */
  private readonly budgetByPane = new Map<string, InboxItem>();
  /** Ids acknowledged before the list was applied: a list taken earlier may still hold them. */
  private acknowledgedEarly: Set<number> | null = new Set();

  /** The pane's unacknowledged item, if it has one. */
  of(paneId: string): InboxItem | null {
    return this.byPane.get(paneId) ?? null;
  }

  /** How many agents need the person: panes with an unacknowledged item. */
  get size(): number {
    return this.byPane.size;
  }

  items(): InboxItem[] {
    return [...this.byPane.values()];
  }

  /** The budget items (a budget crossed), kept apart: listed and notified, never a card's reminder. */
  budgetItems(): InboxItem[] {
    return [...this.budgetByPane.values()];
  }

  /** Applies `inbox.list`'s answer, read after subscribing; answers the panes whose item changed. */
  applyList(items: readonly InboxItem[]): string[] {
    const early = this.acknowledgedEarly ?? new Set<number>();
    this.acknowledgedEarly = null;
    const changed: string[] = [];
    for (const item of items) if (!early.has(item.id) && this.put(item)) changed.push(item.pane.id);
    return changed;
  }

  /** Starts over before subscribing again (a stream that could not resume). */
  clear(): void {
    this.byPane.clear();
    this.budgetByPane.clear();
    this.acknowledgedEarly = new Set();
  }

  /** Applies one event; answers the pane whose item changed, or null. */
  apply(event: AnyCorralEvent): string | null {
    if (event.pane === null) return null;
    const paneId = event.pane.id;
    if (event.kind === 'inbox.added') return this.put(event.data.item) ? paneId : null;
    if (event.kind === 'inbox.acknowledged') {
      for (const id of event.data.ids) this.acknowledgedEarly?.add(id);
      const budget = this.budgetByPane.get(paneId);
      if (budget !== undefined && event.data.ids.includes(budget.id)) this.budgetByPane.delete(paneId);
      const item = this.byPane.get(paneId);
      if (item === undefined || !event.data.ids.includes(item.id)) return null;
      this.byPane.delete(paneId);
      return paneId;
    }
    if (event.kind === 'pane.removed') {
      this.budgetByPane.delete(paneId);
      return this.byPane.delete(paneId) ? paneId : null;
    }
    return null;
  }

  private put(item: InboxItem): boolean {
    // A budget's item is held apart: it is no pane's attention item, and changes no card.
    if (item.state === 'budget') {
      const budget = this.budgetByPane.get(item.pane.id);
      if (budget === undefined || budget.id < item.id) this.budgetByPane.set(item.pane.id, item);
      return false;
    }
    const current = this.byPane.get(item.pane.id);
    if (current !== undefined && current.id >= item.id) return false;
    this.byPane.set(item.pane.id, item);
    return true;
  }
}
