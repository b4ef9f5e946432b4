import { LiveAgents, needsYou } from '../../client/index.ts';
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
 * What top shows of one daemon's live agents (src/client/live-agents.ts, which keeps them): the rows
 * in attention order and which of them need the person. Keeps no agents of its own.
 */
export class TopRows {
  constructor(readonly live: LiveAgents = new LiveAgents()) {}

  get size(): number {
    return this.live.size;
  }

  /** The rows that need the person (`needsYou`: blocked, or done and not yet seen). */
  needing(): Set<string> {
    return new Set(this.live.list().filter((info) => needsYou(info.state)).map((info) => info.id));
  }

  /** Sorted by attention (byAttention). */
  sorted(): AgentInfo[] {
    return this.live.list().sort(byAttention);
  }
}
