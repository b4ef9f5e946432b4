import { CorralError } from '../../protocol/errors.ts';
import type { AgentWaitResult, WaitMode } from '../../protocol/methods/agent-wait.ts';
import type { AgentState } from '../../protocol/states.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import { judgeTarget, type TargetFacts, type TargetVerdict } from './wait-match.ts';

export interface WaitTarget {
  /** As the caller named it (id or name): the key of `matched` and `states`. */
  name: string;
  pane: PaneRecord;
}

export interface WaitSpec {
  targets: WaitTarget[];
  want: ReadonlySet<AgentState>;
  mode: WaitMode;
  sinceSeq?: number;
  stableMs: number;
  timeoutMs?: number;
}

interface WaitDeps {
  facts(pane: PaneRecord): TargetFacts;
  seq(): number;
}

type Lifecycle = 'waiting' | 'settled';

/**
 * One `agent.wait`: level-triggered, so it judges every target at once and again on each change the
 * hub routes to it; never polls. Timers exist only for `stableMs` (armed for the earliest moment the
 * condition could hold long enough, re-armed on each change) and for `timeoutMs`.
 */
export class AgentWait {
  readonly result: Promise<AgentWaitResult>;
  private lifecycle: Lifecycle = 'waiting';
  private readonly startedAt = performance.now();
  /** Per target name: since when (ms since the epoch) it has matched without a break. */
  private readonly matchingSince = new Map<string, number>();
  private stableTimer: NodeJS.Timeout | null = null;
  private timeoutTimer: NodeJS.Timeout | null = null;
  private resolve!: (result: AgentWaitResult) => void;
  private reject!: (error: Error) => void;

  constructor(
    readonly spec: WaitSpec,
    private readonly deps: WaitDeps,
    private readonly onSettled: (wait: AgentWait) => void,
  ) {
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  get settled(): boolean {
    return this.lifecycle === 'settled';
  }

  /** Judges the current state first: a wait that already matches answers at once. */
  start(): void {
    const now = Date.now();
    for (const target of this.spec.targets) {
      const facts = this.deps.facts(target.pane);
      if (judgeTarget(facts, this.spec.want, this.spec.sinceSeq) === 'match') this.matchingSince.set(target.name, Math.min(facts.stateSince, now));
    }
    this.evaluate();
    if (this.settled || this.spec.timeoutMs === undefined) return;
    this.timeoutTimer = setTimeout(() => this.expire(), this.spec.timeoutMs);
  }

  /** Something about one of the panes changed (agent change, seen flip, exit, removal): judge again. */
  evaluate(): void {
    if (this.settled) return;
    const now = Date.now();
    const verdicts = new Map<string, TargetVerdict>();
    for (const target of this.spec.targets) {
      const verdict = judgeTarget(this.deps.facts(target.pane), this.spec.want, this.spec.sinceSeq);
      verdicts.set(target.name, verdict);
      if (verdict !== 'match') this.matchingSince.delete(target.name);
      else if (!this.matchingSince.has(target.name)) this.matchingSince.set(target.name, now);
    }
    const stable = this.spec.targets.filter((t) => {
      const since = this.matchingSince.get(t.name);
      return since !== undefined && now - since >= this.spec.stableMs;
    });
    const all = this.spec.mode === 'all';
    if (all ? stable.length === this.spec.targets.length : stable.length > 0) {
      return this.settle(() => this.resolve(this.snapshot(stable.map((t) => t.name))));
    }
    const gone = [...verdicts].filter(([, verdict]) => verdict === 'gone').map(([name]) => name);
    if (all ? gone.length > 0 : gone.length === this.spec.targets.length) return this.fail('agent_gone', this.goneMessage(gone), { gone });
    this.armStable(now);
  }

  /** Ends the wait with an error that carries where it stood (client gone, daemon stopping). */
  cancel(error: CorralError): void {
    this.settle(() => this.reject(error));
  }

  private expire(): void {
    this.timeoutTimer = null;
    this.evaluate(); // a stable window that closes on the same tick as the timeout still counts
    if (!this.settled) this.fail('timeout', this.timeoutMessage(), {});
  }

  private armStable(now: number): void {
    if (this.stableTimer) clearTimeout(this.stableTimer);
    this.stableTimer = null;
    if (this.spec.stableMs === 0 || this.matchingSince.size === 0) return;
    const ends = [...this.matchingSince.values()].map((since) => since + this.spec.stableMs);
    if (this.spec.mode === 'all' && this.matchingSince.size < this.spec.targets.length) return;
    const at = this.spec.mode === 'all' ? Math.max(...ends) : Math.min(...ends);
    this.stableTimer = setTimeout(() => {
      this.stableTimer = null;
      this.evaluate();
    }, Math.max(0, at - now));
  }

  private fail(code: 'timeout' | 'agent_gone', message: string, extra: Record<string, unknown>): void {
    const matched = this.spec.targets.filter((t) => this.matchingSince.has(t.name)).map((t) => t.name);
    const data = { ...this.snapshot(matched), ...extra };
    this.settle(() => this.reject(new CorralError(code, message, data)));
  }

  private settle(finish: () => void): void {
    if (this.settled) return;
    this.lifecycle = 'settled';
    if (this.stableTimer) clearTimeout(this.stableTimer);
    if (this.timeoutTimer) clearTimeout(this.timeoutTimer);
    this.stableTimer = null;
    this.timeoutTimer = null;
    this.onSettled(this);
    finish();
  }

  private snapshot(matched: string[]): AgentWaitResult {
    const states: AgentWaitResult['states'] = {};
    for (const target of this.spec.targets) {
      const facts = this.deps.facts(target.pane);
      states[target.name] = judgeTarget(facts, this.spec.want, this.spec.sinceSeq) === 'gone' ? 'gone' : facts.state;
    }
    return { matched, states, seq: this.deps.seq(), elapsedMs: Math.round(performance.now() - this.startedAt) };
  }

  private describeStates(): string {
    return this.spec.targets.map((t) => `${t.name} is ${this.stateOf(t)}`).join(', ');
  }

  private stateOf(target: WaitTarget): string {
    const facts = this.deps.facts(target.pane);
    return judgeTarget(facts, this.spec.want, this.spec.sinceSeq) === 'gone' ? 'gone' : facts.state;
  }

  private wanted(): string {
    const since = this.spec.sinceSeq !== undefined ? ` after seq ${this.spec.sinceSeq}` : '';
    const stable = this.spec.stableMs > 0 ? ` for ${this.spec.stableMs} ms` : '';
    return `${[...this.spec.want].join(', ')}${since}${stable}`;
  }

  private timeoutMessage(): string {
    const which = this.spec.mode === 'all' ? 'not every target' : 'no target';
    return `${which} reached ${this.wanted()} within ${this.spec.timeoutMs} ms (${this.describeStates()}); wait longer or check them with \`corral agent list\``;
  }

  private goneMessage(gone: string[]): string {
    return `${gone.join(', ')} exited or released its agent, so the wait can no longer match (${this.describeStates()}); see \`corral pane list\``;
  }
}
