import type { AgentState } from '../../protocol/states.ts';
import type { AgentChange } from '../agents/agent-service.ts';

/** What a wait needs to know of a pane's history beyond its current view. */
export interface PaneTurn {
  /** The state_change_seq of the pane's last turn: a change of its agent or raw state, or a release. 0 before any. */
  turnSeq: number;
  /** The pane's last agent was released (its process ended) and no agent has been identified since. */
  released: boolean;
}

const NO_TURN: PaneTurn = Object.freeze({ turnSeq: 0, released: false });

/**
 * Per pane, the seq of its last turn. A seen flip alone (done becoming idle) is not a turn: a caller
 * that focuses or prompts a done agent after taking its `sinceSeq` must not see that flip as the new
 * idle it waits for.
 */
export class ChangeLedger {
  private readonly turns = new Map<string, PaneTurn>();
  /** Recovered panes not yet settled: the agent and state an earlier daemon last published for them. */
  private readonly recomputing = new Map<string, { agent: string | null; state: AgentState }>();

  /**
   * Starts from what the earlier daemons published (the durable log), so a `sinceSeq` taken before a
   * restart keeps its meaning; a recovered pane's recomputed state is a turn only if it differs.
   */
  constructor(history: ReadonlyMap<string, { agent: string | null; state: AgentState; turnSeq: number; released: boolean }> = new Map()) {
    for (const [pane, { agent, state, turnSeq, released }] of history) {
      this.turns.set(pane, { turnSeq, released });
      this.recomputing.set(pane, { agent, state });
    }
  }

  record(change: AgentChange): void {
    const { kind, before, after } = change.record;
    const previous = this.turnOf(change.pane.id);
    const prior = change.pane.recovered ? this.recomputing.get(change.pane.id) : undefined;
    if (prior !== undefined && kind !== 'released') {
      // Replaying the ring reads the screen anew: unknown until it settles, then what it already was.
      if (after.displayed === 'unknown' && after.agent === prior.agent) return;
      this.recomputing.delete(change.pane.id);
      if (after.agent === prior.agent && rawOf(after.displayed) === rawOf(prior.state)) {
        this.turns.set(change.pane.id, { turnSeq: previous.turnSeq, released: after.agent === null && previous.released });
        return;
      }
    }
    const turned = kind === 'released' || before.agent !== after.agent || before.state !== after.state;
    this.turns.set(change.pane.id, {
      turnSeq: turned ? change.seq : previous.turnSeq,
      released: after.agent !== null ? false : kind === 'released' || previous.released,
    });
  }

  turnOf(paneId: string): PaneTurn {
    return this.turns.get(paneId) ?? NO_TURN;
  }

  forget(paneId: string): void {
    this.turns.delete(paneId);
    this.recomputing.delete(paneId);
  }
}

/** Done is idle not yet seen: the same raw state. */
function rawOf(state: AgentState): AgentState {
  return state === 'done' ? 'idle' : state;
}
