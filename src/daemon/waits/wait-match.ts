import type { AgentState } from '../../protocol/states.ts';

/** Everything that decides whether one target of a wait matches, read at one moment. */
export interface TargetFacts {
  /** False once the pane has been removed (killed). */
  present: boolean;
  paneExited: boolean;
  agent: string | null;
  state: AgentState;
  /** When the agent or its raw state last changed (ms since the epoch). */
  stateSince: number;
  turnSeq: number;
  released: boolean;
}

export type TargetVerdict = 'match' | 'wait' | 'gone';

/** `idle` also accepts `done`, since done is idle not yet seen. */
export function expandUntil(until: readonly AgentState[]): ReadonlySet<AgentState> {
  const states = new Set(until);
  if (states.has('idle')) states.add('done');
  return states;
}

/**
 * A target matches when it has an agent in one of the wanted states and, given `sinceSeq`, its last
 * turn came after that seq. It is gone when its pane was removed, or it has no agent and never will
 * again in this wait's sense: the pane exited or its agent was released. A pane whose agent is not
 * identified yet waits.
 */
export function judgeTarget(facts: TargetFacts, want: ReadonlySet<AgentState>, sinceSeq: number | undefined): TargetVerdict {
  if (!facts.present) return 'gone';
  if (facts.agent === null) return facts.paneExited || facts.released ? 'gone' : 'wait';
  if (!want.has(facts.state)) return 'wait';
  if (sinceSeq !== undefined && facts.turnSeq <= sinceSeq) return 'wait';
  return 'match';
}
