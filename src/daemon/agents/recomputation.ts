import type { ChangeRecord } from '../../arbiter/index.ts';
import type { AgentState } from '../../protocol/states.ts';
import type { PaneRecord } from '../panes/pane-record.ts';

/** A recovered pane's agent and state as the earlier daemons last published them. */
export interface PriorState {
  agent: string | null;
  state: AgentState | string;
  /** When that state began (ms since the epoch), so its age survives the restart. */
  stateSince?: number;
}

/**
 * How a change of a recovered pane relates to what was published before the restart: `passing`, a
 * state read on the way (unknown, or working while the replayed screen settles); `same`, the state it
 * had (a recomputation: no attention, no turn); `changed`, a state it reached while no daemon ran (a
 * turn nobody saw). Absent for a change after the pane settled, or of a pane that was not recovered.
 */
export type Recomputed = 'passing' | 'same' | 'changed';

/** Done is idle not yet seen: one raw state (the seen flag is not what a restart recomputes). */
function rawOf(state: string): string {
  return state === 'done' ? 'idle' : state;
}

/**
 * Judges the changes of recovered panes until each settles: at the state it had, or at another
 * known state than working. Replaying a pane's ring reads its history anew, so a finished turn may
 * read working for a moment before it reads done again; that is no new turn.
 */
export class Recomputations {
  private readonly settled = new Set<string>();
  /** Panes that settled at the state they had: since when they have had it, until their next turn. */
  private readonly ages = new Map<string, number>();

  constructor(private readonly prior: ReadonlyMap<string, PriorState>) {}

  judge(pane: PaneRecord, record: ChangeRecord): Recomputed | undefined {
    const { before, after } = record;
    if (this.ages.has(pane.id) && (record.kind === 'released' || before.agent !== after.agent || before.state !== after.state)) this.ages.delete(pane.id);
    if (!pane.recovered || this.settled.has(pane.id)) return undefined;
    const prior = this.prior.get(pane.id) ?? (pane.previous ? { agent: pane.previous.agent, state: pane.previous.state } : undefined);
    if (prior === undefined || record.kind === 'released') {
      this.settled.add(pane.id);
      return undefined;
    }
    const { agent, displayed } = record.after;
    if (displayed === 'unknown') return 'passing';
    if (agent === prior.agent && rawOf(displayed) === rawOf(prior.state)) {
      this.settled.add(pane.id);
      if (prior.stateSince !== undefined) this.ages.set(pane.id, prior.stateSince);
      return 'same';
    }
    if (displayed === 'working') return 'passing';
    this.settled.add(pane.id);
    return 'changed';
  }

  /** When the pane's state began: from before the restart for a pane that settled at the state it had. */
  stateSince(paneId: string, recomputedSince: number): number {
    return this.ages.get(paneId) ?? recomputedSince;
  }

  forget(paneId: string): void {
    this.settled.delete(paneId);
    this.ages.delete(paneId);
  }
}
