import { Emitter } from '../base/emitter.ts';
import type { Disposable } from '../base/disposable.ts';
import type { AgentInfo } from '../protocol/methods/agent.ts';
import type { AnyCorralEvent } from '../protocol/methods/events.ts';
import type { InboxItem } from '../protocol/methods/inbox.ts';
import { needsYou } from '../protocol/states.ts';
import { InboxView } from './inbox-view.ts';

/** What changed in a LiveAgents, told after it changed. */
export type LiveChange =
  /** Started over from a snapshot (or a whole list): every agent may have changed. */
  | { kind: 'reset' }
  | { kind: 'agent'; info: AgentInfo; before: AgentInfo | null }
  | { kind: 'removed'; id: string }
  /** The pane's inbox item changed; `added` when an item entered the inbox (what pages notify of). */
  | { kind: 'inbox'; paneId: string; added: InboxItem | null }
  /**
   * An event of a daemon before 2.7 told of a change its `info` would have carried: the agent as known
   * here may be out of date until the owner reads it again (HostLink lists its host again).
   */
  | { kind: 'incomplete'; id: string };

export { needsYou };

/**
 * One daemon's agents as a client keeps them live, with its attention inbox beside them: started from
 * a subscription's snapshot, then kept by the events alone, which carry each agent whole (`info`,
 * docs/events.md), so nothing is read back. Events that come before the snapshot is applied are held
 * and applied after it, in order: the daemon answers `events.subscribe` before it sends any event, so
 * all of them are newer than the snapshot. A pane leaves when its agent is released or the pane is
 * removed. Pure: its owner feeds it (live-feed.ts for one daemon, HostLink for each host of a fleet).
 */
export class LiveAgents implements Disposable {
  readonly inbox = new InboxView();
  private readonly agents = new Map<string, AgentInfo>();
  /** Events that came before the snapshot; null once a snapshot was applied. */
  private held: AnyCorralEvent[] | null = [];
  private readonly changes = new Emitter<LiveChange>();
  readonly onChange = this.changes.event;

  /** Whether a snapshot was applied (and events since are applied as they come). */
  get started(): boolean {
    return this.held === null;
  }

  get size(): number {
    return this.agents.size;
  }

  get(id: string): AgentInfo | null {
    return this.agents.get(id) ?? null;
  }

  list(): AgentInfo[] {
    return [...this.agents.values()];
  }

  /** How many agents need the person now (`needsYou`): the number every view shows. */
  needingCount(): number {
    let count = 0;
    for (const info of this.agents.values()) if (needsYou(info.state)) count += 1;
    return count;
  }

  /** Before subscribing again (a stream that could not resume): events are held until the next snapshot. */
  restart(): void {
    this.held = [];
    this.inbox.clear();
  }

  /**
   * Starts over from the agents of a snapshot (or a whole `agent.list` answered on the stream's
   * connection, which is as new as every event before it); events held meanwhile follow.
   */
  reset(agents: readonly AgentInfo[]): void {
    this.agents.clear();
    for (const info of agents) if (info.agent !== null) this.agents.set(info.id, info);
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.applyNow(event, false);
    this.changes.fire({ kind: 'reset' });
  }

  /** An agent read whole (`agent.get`) by an owner whose daemon's events do not carry it (before 2.7). */
  take(info: AgentInfo): void {
    if (this.held === null) this.takeInfo(info, true);
  }

  /** `inbox.list`'s answer, read after subscribing (InboxView keeps the order right). */
  applyInboxList(items: readonly InboxItem[]): void {
    for (const paneId of this.inbox.applyList(items)) this.changes.fire({ kind: 'inbox', paneId, added: null });
  }

  apply(event: AnyCorralEvent): void {
    if (this.held !== null) this.held.push(event);
    else this.applyNow(event, true);
  }

  dispose(): void {
    this.changes.dispose();
  }

  private applyNow(event: AnyCorralEvent, tell: boolean): void {
    if (event.pane === null) return;
    const id = event.pane.id;
    const inboxChanged = this.inbox.apply(event) !== null;
    if (inboxChanged && tell) this.changes.fire({ kind: 'inbox', paneId: id, added: event.kind === 'inbox.added' ? event.data.item : null });
    // A budget's item is not the pane's attention item (the view keeps none of it), but it is told as one enters.
    else if (tell && event.kind === 'inbox.added' && event.data.item.state === 'budget') this.changes.fire({ kind: 'inbox', paneId: id, added: event.data.item });
    switch (event.kind) {
      case 'pane.removed':
      case 'agent.released':
        return this.remove(id, tell);
      case 'pane.exited': {
        const known = this.agents.get(id);
        if (known) this.put({ ...known, paneState: 'exited' }, tell);
        return;
      }
      case 'agent.detected':
      case 'agent.stateChanged':
      case 'agent.seen':
      case 'agent.queueChanged':
      case 'agent.promptChanged':
      case 'metadata.changed':
        if (event.data.info) return this.takeInfo(event.data.info, tell);
        return this.patch(event, tell);
      case 'agent.usageChanged': {
        // The figures (and the budget share they stand at) change without a new revision of the agent.
        const known = this.agents.get(id);
        if (known) this.put({ ...known, usage: event.data.usage }, tell);
        return;
      }
      default:
        return;
    }
  }

  /** An agent as an event carried it: an older one (by revision) never replaces a newer. */
  private takeInfo(info: AgentInfo, tell: boolean): void {
    if (info.agent === null) return this.remove(info.id, tell);
    const known = this.agents.get(info.id);
    if (known !== undefined && info.revision < known.revision) return;
    this.put(info, tell);
  }

  /** What an event of a daemon before 2.7 (no `info`) tells; the rest is the owner's to read. */
  private patch(event: AnyCorralEvent, tell: boolean): void {
    const id = event.pane!.id;
    const known = this.agents.get(id);
    if (event.kind === 'agent.stateChanged' && known) {
      const { agent, to, seen, revision, rule, source, prompt } = event.data;
      const { prompt: _was, ...rest } = known;
      return this.put({ ...rest, agent, state: to, seen, revision, rule, source, stateSince: event.ts, ...(prompt ? { prompt } : {}) }, tell);
    }
    if (event.kind === 'agent.seen' && known) return this.put({ ...known, state: event.data.state, seen: event.data.seen }, tell);
    if (event.kind === 'agent.queueChanged' && known) return this.put({ ...known, queued: event.data.queued }, tell);
    if (event.kind === 'agent.promptChanged' && known) return this.put({ ...known, prompt: event.data.prompt }, tell);
    if (event.kind === 'metadata.changed' && known) return this.put({ ...known, metadata: event.data.metadata }, tell);
    // Only a new agent is worth reading whole: a seen flag, a queue or a prompt of a pane never listed is
    // no agent to show, and reading back on each such event let a host that streams them drive the reads.
    if (tell && (event.kind === 'agent.stateChanged' || event.kind === 'agent.detected')) this.changes.fire({ kind: 'incomplete', id });
  }

  private put(info: AgentInfo, tell: boolean): void {
    if (info.agent === null) return this.remove(info.id, tell);
    const before = this.agents.get(info.id) ?? null;
    this.agents.set(info.id, info);
    if (tell) this.changes.fire({ kind: 'agent', info, before });
  }

  private remove(id: string, tell: boolean): void {
    if (this.agents.delete(id) && tell) this.changes.fire({ kind: 'removed', id });
  }
}
