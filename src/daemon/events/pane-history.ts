import type { AgentState } from '../../protocol/states.ts';
import type { RetainedEvent } from './event-ring.ts';

/** What the durable log says of one pane as the earlier daemons left it. */
export interface PaneHistory {
  agent: string | null;
  /** The displayed state of its last published change. */
  state: AgentState;
  /** The seq of its last turn (a change of agent or raw state, or a release); 0 when the log holds none. */
  turnSeq: number;
  released: boolean;
}

/** A displayed change that is only the seen flag moving (done and idle are one raw state). */
function seenFlipOnly(from: AgentState, to: AgentState): boolean {
  return (from === 'done' && to === 'idle') || (from === 'idle' && to === 'done') || from === to;
}

/** Each pane's last agent, state and turn as the log's events tell them, oldest first. */
export function paneHistories(events: readonly RetainedEvent[]): Map<string, PaneHistory> {
  const panes = new Map<string, PaneHistory>();
  for (const { event } of events) {
    if (event.pane === null) continue;
    const id = event.pane.id;
    const known = panes.get(id) ?? { agent: null, state: 'unknown' as AgentState, turnSeq: 0, released: false };
    const data = event.data as Record<string, unknown>;
    switch (event.kind) {
      case 'pane.removed':
        panes.delete(id);
        continue;
      case 'agent.detected':
        panes.set(id, { agent: data.agent as string, state: data.state as AgentState, turnSeq: data.seq as number, released: false });
        continue;
      case 'agent.released':
        panes.set(id, { agent: null, state: 'unknown', turnSeq: data.seq as number, released: true });
        continue;
      case 'agent.stateChanged': {
        const from = data.from as AgentState;
        const to = data.to as AgentState;
        const agent = (data.agent as string | null) ?? null;
        const turned = agent !== known.agent || !seenFlipOnly(from, to);
        panes.set(id, { agent, state: to, turnSeq: turned ? (data.seq as number) : known.turnSeq, released: agent === null && known.released });
        continue;
      }
      default:
        continue;
    }
  }
  return panes;
}
