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
  /** When its agent or raw state last changed (the event's time): what `stateSince` was. */
  stateSince: number;
}

const rawOf = (state: AgentState) => (state === 'done' ? 'idle' : state);

/** A displayed change that is only the seen flag moving (done and idle are one raw state). */
function seenFlipOnly(from: AgentState, to: AgentState): boolean {
  return rawOf(from) === rawOf(to);
}

/** Each pane's last agent, state and turn as the log's events tell them, oldest first. */
export function paneHistories(events: readonly RetainedEvent[]): Map<string, PaneHistory> {
  const panes = new Map<string, PaneHistory>();
  // Per pane in a run of recovered changes: its state before the restart. A recovered change is a turn
  // only when it reached another known state than that one and than working (agents/recomputation.ts).
  const recovering = new Map<string, AgentState>();
  for (const { event } of events) {
    if (event.pane === null) continue;
    const id = event.pane.id;
    const known = panes.get(id) ?? { agent: null, state: 'unknown' as AgentState, turnSeq: 0, released: false, stateSince: event.ts };
    const data = event.data as Record<string, unknown>;
    switch (event.kind) {
      case 'pane.removed':
        panes.delete(id);
        continue;
      case 'agent.detected':
        // The agent of a recovered pane is named anew before its state is read: no turn by itself.
        if (known.agent === data.agent) panes.set(id, { ...known, released: false });
        else panes.set(id, { agent: data.agent as string, state: data.state as AgentState, turnSeq: data.seq as number, released: false, stateSince: event.ts });
        continue;
      case 'agent.released':
        panes.set(id, { agent: null, state: 'unknown', turnSeq: data.seq as number, released: true, stateSince: event.ts });
        continue;
      case 'agent.stateChanged': {
        const from = data.from as AgentState;
        const to = data.to as AgentState;
        const agent = (data.agent as string | null) ?? null;
        let turned = agent !== known.agent || !seenFlipOnly(from, to);
        if (data.recovered === true) {
          if (!recovering.has(id)) recovering.set(id, known.state);
          const base = recovering.get(id)!;
          turned = to !== 'unknown' && to !== 'working' && rawOf(to) !== rawOf(base);
          if (to !== 'unknown' && (to !== 'working' || rawOf(base) === 'working')) recovering.delete(id);
          // The state the pane had before the restart keeps its age; a passing one does not count.
          const kept = !turned ? known.stateSince : event.ts;
          panes.set(id, { agent, state: to, turnSeq: turned ? (data.seq as number) : known.turnSeq, released: agent === null && known.released, stateSince: kept });
          continue;
        }
        recovering.delete(id);
        panes.set(id, { agent, state: to, turnSeq: turned ? (data.seq as number) : known.turnSeq, released: agent === null && known.released, stateSince: turned ? event.ts : known.stateSince });
        continue;
      }
      default:
        continue;
    }
  }
  return panes;
}

/** Panes whose `pane.created` is in the log and whose `pane.removed` is not: a new daemon does not announce them again. */
export function announcedPanes(events: readonly RetainedEvent[]): Set<string> {
  const panes = new Set<string>();
  for (const { event } of events) {
    if (event.pane === null) continue;
    if (event.kind === 'pane.created') panes.add(event.pane.id);
    else if (event.kind === 'pane.removed') panes.delete(event.pane.id);
  }
  return panes;
}

/** The first pane number after every one the log's events name (`w1:p12` names 12), 1 for none. */
export function paneNumbersAfter(events: readonly RetainedEvent[]): number {
  let next = 1;
  for (const { event } of events) {
    const number = event.pane === null ? NaN : Number(/:p(\d+)$/.exec(event.pane.id)?.[1]);
    if (number >= next) next = number + 1;
  }
  return next;
}
