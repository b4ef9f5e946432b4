import type { AgentChange } from '../agents/agent-service.ts';

/** What a wait needs to know of a pane's history beyond its current view. */
interface PaneTurn {
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
  /** Starts from what the earlier daemons published (the durable log), so a `sinceSeq` taken before a restart keeps its meaning. */
  constructor(history: ReadonlyMap<string, PaneTurn> = new Map()) {
    for (const [pane, { turnSeq, released }] of history) this.turns.set(pane, { turnSeq, released });
  }

  record(change: AgentChange): void {
    const { kind, before, after } = change.record;
    const previous = this.turnOf(change.pane.id);
    // What a replayed ring merely recomputes is no turn; a state reached while no daemon ran is one.
    if (change.recomputed === 'passing' || change.recomputed === 'same') {
      this.turns.set(change.pane.id, { turnSeq: previous.turnSeq, released: after.agent !== null ? false : previous.released });
      return;
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
  }
}

