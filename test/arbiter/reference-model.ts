/**
 * A small reference model of the arbiter, written from the rules in issue 4 without the arbiter's
 * code, for the randomized test. It covers: process starts and exits, screen rules, fallbacks and
 * skips, hook reports with pid, session and seq, external reports, self reports, releases, debounce
 * and seen; and, from issue 39, reports ordered against what a screen rule last showed. Freshness by ts, ended=1 and unobservable panes are covered by the rule tests instead.
 */
type State = 'idle' | 'working' | 'blocked' | 'unknown';

interface Accepted {
  source: string;
  agent: string;
  state: State;
  session: string | null;
  order: number;
}

export type ModelEvent =
  | { kind: 'start'; agent: string; pid: number; lifecycle: string[] }
  | { kind: 'exit' }
  | { kind: 'screen'; agent: string; state: State; rule: 'rule' | 'fallback' | 'skip' }
  | { kind: 'report'; source: string; agent: string; state: State; session: string | null; seq: number | null; pid: number | null }
  | { kind: 'release'; source: string; session: string | null; pid: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'seen' };

export interface ModelView {
  agent: string | null;
  state: State;
  seen: boolean;
}

export class ReferenceModel {
  now = 0;
  generation = 0;
  agent: string | null = null;
  agentPid: number | null = null;
  lifecycle: string[] = [];
  alivePids = new Set<number>();
  latest = new Map<string, Accepted>();
  seqs = new Map<string, number>();
  sessionGeneration = new Map<string, number>();
  endedSessions = new Set<string>();
  currentSession: string | null = null;
  screen: { agent: string; state: State; rule: boolean } | null = null;
  skipOrder: number | null = null;
  /** What a screen rule last showed (kept through fallbacks), and when in the order of evidence. */
  ruled: { agent: string; state: State; order: number } | null = null;
  order = 0;
  view: ModelView = { agent: null, state: 'unknown', seen: true };
  lastKnown: State | null = null; // the last state other than unknown since the agent (or generation) began
  pending: { agent: string; state: State; deadline: number } | null = null;
  readonly debounceMs: number;
  readonly startupSettleMs: number;

  constructor(debounceMs: number, startupSettleMs: number) {
    this.debounceMs = debounceMs;
    this.startupSettleMs = startupSettleMs;
  }

  /** Applies one event; answers whether a report was accepted (null for other events). */
  step(event: ModelEvent): boolean | null {
    switch (event.kind) {
      case 'start':
      case 'exit': {
        // The shell staying in the foreground is the same process: nothing ends.
        if (event.kind === 'exit' && this.agentPid === null && this.generation > 0) return null;
        if (this.pending) this.publish(this.target(), false); // the ended program's last screen is final
        if (this.agentPid !== null) {
          this.alivePids.delete(this.agentPid);
          this.alivePids.delete(this.agentPid + 1);
        }
        const hadAgent = this.view.agent !== null;
        this.generation += 1;
        this.lastKnown = null;
        this.agent = event.kind === 'start' ? event.agent : null;
        this.agentPid = event.kind === 'start' ? event.pid : null;
        this.lifecycle = event.kind === 'start' ? event.lifecycle : [];
        if (this.agentPid !== null) {
          this.alivePids.add(this.agentPid);
          this.alivePids.add(this.agentPid + 1);
        }
        this.latest.clear();
        this.seqs.clear();
        this.currentSession = null;
        this.screen = null;
        this.skipOrder = null;
        this.ruled = null;
        this.pending = null;
        this.publish(this.target(), hadAgent);
        return null;
      }
      case 'screen':
        this.order += 1;
        if (event.rule === 'skip') this.skipOrder ??= this.order;
        else {
          this.screen = { agent: event.agent, state: event.state, rule: event.rule === 'rule' };
          if (event.rule === 'rule') this.ruled = { agent: event.agent, state: event.state, order: this.order };
          this.skipOrder = null;
        }
        this.settle();
        return null;
      case 'report':
        return this.report(event);
      case 'release': {
        if (!this.alivePids.has(event.pid)) return false;
        const mine = [...this.latest.values()].filter((r) => r.source === event.source && (event.session === null || r.session === event.session));
        if (mine.length === 0 && event.session === null) return false;
        for (const r of mine) {
          this.latest.delete(r.source);
          if (r.session !== null) {
            this.sessionGeneration.set(r.session, this.generation);
            this.endedSessions.add(`${this.generation}/${r.session}`);
          }
        }
        if (event.session !== null) {
          this.sessionGeneration.set(event.session, this.generation);
          this.endedSessions.add(`${this.generation}/${event.session}`);
        }
        this.settle();
        return true;
      }
      case 'advance':
        this.now += event.ms;
        this.settle();
        return null;
      case 'seen':
        this.view = { ...this.view, seen: true };
        return null;
    }
  }

  report(event: Extract<ModelEvent, { kind: 'report' }>): boolean {
    if (event.pid !== null && !this.alivePids.has(event.pid)) return false; // not in the pane (its process ended)
    if (event.session !== null) {
      const bound = this.sessionGeneration.get(event.session);
      if (bound !== undefined && bound < this.generation && event.pid === null) return false;
      if (bound === this.generation && this.endedSessions.has(`${this.generation}/${event.session}`)) return false;
    }
    if (this.agent !== null && event.agent !== this.agent) return false;
    if (event.seq !== null) {
      const key = event.source; // per agent process: a new session does not restart the order
      const last = this.seqs.get(key);
      if (last !== undefined && event.seq <= last) return false;
      this.seqs.set(key, event.seq);
    }
    if (event.session !== null) {
      this.sessionGeneration.set(event.session, this.generation);
      this.endedSessions.delete(`${this.generation}/${event.session}`);
      this.currentSession = event.session;
    }
    this.order += 1;
    this.latest.set(event.source, { source: event.source, agent: event.agent, state: event.state, session: event.session, order: this.order });
    this.settle();
    return true;
  }

  /** What the rules say now, before debounce. */
  target(): { agent: string | null; state: State; fromScreen: boolean; fallback?: boolean; againstScreen?: boolean } {
    const reports = [...this.latest.values()].sort((a, b) => b.order - a.order);
    const agent = this.agent ?? reports[0]?.agent ?? null;
    if (agent === null) return { agent, state: 'unknown', fromScreen: false };
    const mine = reports.filter((r) => r.agent === agent);
    const visible = this.screen?.agent === agent && this.skipOrder === null ? this.screen : null;
    if (visible?.rule && visible.state === 'blocked') return { agent, state: 'blocked', fromScreen: true };
    if (this.agent !== null) {
      const authority = mine.find((r) => this.lifecycle.includes(r.source) && (r.session === null || r.session === this.currentSession));
      if (authority) return { agent, state: authority.state, fromScreen: false };
    }
    const screen = this.screen?.agent === agent ? this.screen : null;
    if (this.skipOrder !== null) {
      if (mine[0] && mine[0].order > this.skipOrder) return { agent, state: mine[0].state, fromScreen: false };
      return { agent, state: this.view.agent === agent ? this.view.state : 'unknown', fromScreen: false };
    }
    if (screen?.rule) return { agent, state: screen.state, fromScreen: true };
    // A report older than a screen rule that showed another state is not news.
    const ruled = this.ruled?.agent === agent ? this.ruled : null;
    const news = mine.find((r) => ruled === null || r.order > ruled.order || r.state === ruled.state);
    if (news) return { agent, state: news.state, fromScreen: false, againstScreen: ruled !== null && ruled.state !== news.state };
    if (screen) return { agent, state: screen.state, fromScreen: true, fallback: true };
    return { agent, state: 'unknown', fromScreen: false };
  }

  settle(): void {
    const target = this.target();
    const from = this.view;
    // The first idle of a new agent process, before any known state, holds for the start-up window.
    const startup = target.fromScreen && target.agent !== null && target.agent === from.agent && from.state === 'unknown' &&
      target.state === 'idle' && this.lastKnown === null;
    // A report saying other than what the screen's rules last showed waits, as a screen transition does.
    const held = target.againstScreen === true && target.agent === from.agent && from.state !== 'unknown' && from.state !== target.state;
    const debounced = startup || held || target.fromScreen && target.agent === from.agent &&
      ((from.state === 'blocked' && target.state !== 'blocked') || (from.state === 'working' && target.state === 'idle') ||
        (target.fallback === true && from.state !== 'unknown' && from.state !== target.state));
    if (!debounced) {
      this.pending = null;
      this.publish(target, false);
      return;
    }
    if (!this.pending || this.pending.agent !== target.agent || this.pending.state !== target.state) {
      this.pending = { agent: target.agent as string, state: target.state, deadline: this.now + (startup ? this.startupSettleMs : this.debounceMs) };
    }
    if (this.now >= this.pending.deadline) {
      this.pending = null;
      this.publish(target, false);
    }
  }

  publish(target: { agent: string | null; state: State }, released: boolean): void {
    const from = this.view.state === 'unknown' ? this.lastKnown : this.view.state;
    const completed = !released && target.agent === this.view.agent && target.state === 'idle' && (from === 'working' || from === 'blocked');
    if (target.agent !== this.view.agent) this.lastKnown = null;
    if (target.state !== 'unknown') this.lastKnown = target.state;
    this.view = { agent: target.agent, state: target.state, seen: completed ? false : this.view.seen };
  }
}
