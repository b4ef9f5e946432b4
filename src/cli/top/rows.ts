import { InboxView } from '../../client/index.ts';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import type { AgentState } from '../../protocol/states.ts';

/** Attention order: what needs a person first. */
export const ATTENTION_ORDER: readonly AgentState[] = ['blocked', 'done', 'working', 'idle', 'unknown'];

/** Attention order, then longest in its state first, then pane id for a stable order. */
export function byAttention(a: AgentInfo, b: AgentInfo): number {
  return (
    ATTENTION_ORDER.indexOf(a.state) - ATTENTION_ORDER.indexOf(b.state) ||
    a.stateSince - b.stateSince ||
    a.id.localeCompare(b.id, 'en', { numeric: true })
  );
}

/**
 * The agents top shows, by pane id. Pure: fed the snapshot and each fresh AgentInfo; a pane whose
 * agent is no longer identified (released, or its pane removed) leaves the view.
 */
export class TopRows {
  private readonly byId = new Map<string, AgentInfo>();
  /** The daemon's attention inbox: which agents need the person (fed by the same stream). */
  readonly inbox = new InboxView();

  /** Starts over from a snapshot (on subscribe, and again after the stream was dropped). */
  reset(agents: readonly AgentInfo[]): void {
    this.byId.clear();
    for (const info of agents) this.update(info);
  }

  update(info: AgentInfo): void {
    if (info.agent === null) this.byId.delete(info.id);
    else this.byId.set(info.id, info);
  }

  remove(paneId: string): void {
    this.byId.delete(paneId);
  }

  get size(): number {
    return this.byId.size;
  }

  /** The shown agents with an unacknowledged inbox item: the ones that need the person. */
  needing(): Set<string> {
    const ids = new Set<string>();
    for (const item of this.inbox.items()) if (this.byId.has(item.pane.id)) ids.add(item.pane.id);
    return ids;
  }

  /** Sorted by attention (byAttention). */
  sorted(): AgentInfo[] {
    return [...this.byId.values()].sort(byAttention);
  }
}
