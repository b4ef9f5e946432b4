import type { Verdict } from '../detect/types.ts';
import type { AgentState, RawState } from '../protocol/states.ts';
import type { OscEvent } from '../terminal/types.ts';
import { BoundedMap } from './bounded-map.ts';
import { checkBinding } from './binding.ts';
import { bindInband, groupLeft, type InbandPolicy } from './inband-binding.ts';
import { recallReports, recallTimestamps, rememberReports, type ArbiterMemory } from './memory.ts';
import { debounce, isStartupIdle, needsDebounce, type PendingTransition } from './debounce.ts';
import { buildExplain, type ArbiterExplain } from './explain.ts';
import { identityExpiresAt, reportAuthority } from './freshness.ts';
import {
  checkAgentReport,
  checkRelease,
  checkSessionReport,
  type AgentReportParams,
  type ReleaseParams,
  type SessionReportParams,
} from './hook-report.ts';
import { decide, pushedExpiresAt, type Decision, type DecideInput, type RuledScreen, type ScreenEvidence } from './precedence.ts';
import { RejectionLog } from './rejections.ts';
import { PROGRAM_STATUS_SOURCE, SELF_REPORT_SOURCE, type Report, type StoredReport } from './report.ts';
import { parseSelfReport, programStatusReport, SELF_REPORT_VARIABLES } from './self-report.ts';
import { SequenceLedger } from './sequence.ts';
import { SessionBook } from './sessions.ts';
import type { AgentView, ChangeRecord, Clock, ProcessObservation, ProcessTree, RejectReason, ReportOutcome } from './types.ts';
import { DEFAULT_WINDOWS, type ArbiterWindows } from './windows.ts';

export interface PaneArbiterOptions {
  clock: Clock;
  tree: ProcessTree;
  windows?: Partial<ArbiterWindows>;
  /** Maps a reported agent id to the id process identity uses (manifest `aliases`); identity by default. */
  canonicalAgent?: (agent: string) => string;
  /** Which in-band reports (OSC 1337 user variables, OSC 7501) count; `group` by default (inband-binding.ts). */
  inband?: InbandPolicy;
}

/** `live` until the pane's PTY closed; an exited pane accepts no more evidence. */
type Lifecycle = 'live' | 'exited';

const UNOBSERVED: ProcessObservation = Object.freeze({ observable: false, leaderPid: null, agent: null, agentPid: null });

/** The per-pane state machine merging all evidence into one effective agent state (see index.ts). */
export class PaneArbiter {
  readonly #clock: Clock;
  readonly #tree: ProcessTree;
  readonly #windows: ArbiterWindows;
  readonly #canonicalAgent: (agent: string) => string;
  readonly #inband: InbandPolicy;
  /** The newest ts accepted per source in this generation: a report without seq older than it is a replay. */
  readonly #lastTs = new Map<string, number>();
  #lifecycle: Lifecycle = 'live';
  #process: ProcessObservation = UNOBSERVED;
  #processKey = processKey(UNOBSERVED);
  #generation = 0;
  readonly #retiredAgentPids: BoundedMap<number, number>;
  readonly #reports = new Map<string, StoredReport>(); // newest accepted per source, current generation
  readonly #sequence: SequenceLedger;
  readonly #sessions: SessionBook;
  #currentSession: string | null = null;
  /** The last session reported, kept across generations: what a respawn resumes. */
  #lastSession: { agent: string | null; session: string } | null = null;
  /** The displayed state an agent had when its process ended: what a lost pane shows of it. */
  #lastReleased: { agent: string; state: AgentState } | null = null;
  #screen: ScreenEvidence | null = null;
  /** What a screen rule last showed, kept through fallback frames: reports are ordered against it. */
  #ruled: RuledScreen | null = null;
  #skipSince: number | null = null;
  /** When the last verdict said it could change with no new output (detection's time conditions). */
  #screenRecheckAt: number | null = null;
  #skipArrival: number | null = null;
  #arrivals = 0; // orders all evidence, so that ties in time still have a freshest
  #pending: PendingTransition | null = null;
  /** The last state other than unknown in this generation: a turn that ends through unknown still completes. */
  #lastKnown: RawState | null = null;
  /** The previous daemon's last state of the same agent process, until the first state is read. */
  #restored: { agent: string; state: RawState; seen: boolean } | null = null;
  #view: AgentView;
  readonly #rejections: RejectionLog;

  constructor(options: PaneArbiterOptions) {
    this.#clock = options.clock;
    this.#tree = options.tree;
    this.#windows = { ...DEFAULT_WINDOWS, ...options.windows };
    this.#canonicalAgent = options.canonicalAgent ?? ((agent) => agent);
    this.#inband = options.inband ?? 'group';
    this.#retiredAgentPids = new BoundedMap(this.#windows.historySize);
    this.#sequence = new SequenceLedger(this.#windows.historySize);
    this.#sessions = new SessionBook(this.#windows.historySize);
    this.#rejections = new RejectionLog(this.#windows.rejectionLogSize);
    const now = this.#clock.now();
    this.#view = { agent: null, identity: 'none', state: 'unknown', displayed: 'unknown', seen: true, rule: 'no_agent', source: 'none', revision: 0, stateSince: now, generation: 0 };
  }

  /** The session the agent last reported (hooks or in-band), or null. */
  get session(): string | null {
    return this.#currentSession;
  }

  /** The last session any agent of this pane reported, with that agent; kept after it exits. */
  get lastSession(): { agent: string | null; session: string } | null {
    return this.#lastSession === null ? null : { ...this.#lastSession };
  }

  /** The last agent whose process ended here, with its final displayed state; kept after it exits. */
  get lastReleased(): { agent: string; state: AgentState } | null {
    return this.#lastReleased === null ? null : { ...this.#lastReleased };
  }

  /**
   * What must survive a daemon restart for late reports to be judged as before: the generation and
   * the process it belongs to, the sessions, the seq and ts watermarks and the retired agent pids; the
   * accepted reports, so that an agent and state they gave come back; and the last state, so that a
   * turn that ended meanwhile reads done.
   */
  memory(): ArbiterMemory {
    return {
      processKey: this.#processKey,
      generation: this.#generation,
      currentSession: this.#currentSession,
      sequence: this.#sequence.save(),
      sessions: this.#sessions.save(),
      retired: this.#retiredAgentPids.entries(),
      reports: rememberReports(this.#reports.values()),
      lastTs: [...this.#lastTs],
      ...(this.#lastMemory() ?? {}),
    };
  }

  #lastMemory(): { last: NonNullable<ArbiterMemory['last']> } | null {
    const agent = this.#view.agent;
    const state = this.#view.state === 'unknown' ? this.#lastKnown : this.#view.state;
    if (agent !== null && state !== null && state !== 'unknown') return { last: { agent, state, seen: this.#view.seen } };
    return this.#restored ? { last: { ...this.#restored } } : null; // nothing read yet since a restore
  }


  /**
   * Takes back a previous daemon's memory before anything is observed. The same agent process seen
   * again continues its generation; another process starts the next one, as it would have.
   */
  restore(memory: ArbiterMemory): void {
    if (this.#generation !== 0 || !Number.isSafeInteger(memory.generation) || memory.generation < 0) return;
    this.#generation = memory.generation;
    this.#processKey = typeof memory.processKey === 'string' ? memory.processKey : this.#processKey;
    this.#currentSession = typeof memory.currentSession === 'string' ? memory.currentSession : null;
    if (Array.isArray(memory.sequence)) this.#sequence.load(memory.sequence);
    if (Array.isArray(memory.sessions)) this.#sessions.load(memory.sessions);
    if (Array.isArray(memory.retired)) for (const [pid, generation] of memory.retired) this.#retiredAgentPids.set(pid, generation);
    // The reports of this generation; the first observation keeps them only if it sees the same process.
    for (const report of recallReports(memory.reports, this.#generation)) {
      this.#reports.set(report.source, report);
      this.#arrivals = Math.max(this.#arrivals, report.arrival);
    }
    for (const [source, ts] of recallTimestamps(memory.lastTs)) this.#lastTs.set(source, ts);
    const last = memory.last;
    if (last && typeof last.agent === 'string' && (last.state === 'working' || last.state === 'blocked' || last.state === 'idle') && typeof last.seen === 'boolean') {
      this.#restored = { agent: last.agent, state: last.state, seen: last.seen };
    }
    this.#view = { ...this.#view, generation: this.#generation };
  }

  /** The effective view. Reading never marks the pane seen. */
  view(): AgentView {
    return { ...this.#view };
  }

  /** How the live process named the agent: its program, or a CORRAL_AGENT hint; null when no process names one. */
  processIdentity(): 'process' | 'hint' | null {
    return this.#process.agent === null ? null : (this.#process.identifiedBy?.by ?? 'process');
  }

  /** The agent's own process as the foreground last showed it; null when no live process names an agent. */
  agentProcess(): { agent: string; pid: number } | null {
    const { agent, agentPid } = this.#process;
    return agent === null || agentPid === null ? null : { agent, pid: agentPid };
  }

  /** Feed on every change of the foreground; a new agent process (or its exit) starts a new generation. */
  observeProcess(observation: ProcessObservation): ChangeRecord[] {
    if (this.#lifecycle === 'exited') return [];
    const key = processKey(observation);
    if (key === this.#processKey) {
      this.#process = { ...observation };
      this.#dropLeftGroups();
      return this.#recompute();
    }
    return this.#startGeneration(observation);
  }

  /** Feed each verdict of the detection engine, as it is computed. */
  observeScreen(verdict: Verdict): ChangeRecord[] {
    if (this.#lifecycle === 'exited') return [];
    const now = this.#clock.now();
    this.#arrivals += 1;
    this.#screenRecheckAt = verdict.recheckAt ?? null;
    if (verdict.skipStateUpdate) {
      this.#skipSince ??= now;
      this.#skipArrival ??= this.#arrivals;
    } else {
      this.#screen = { verdict, at: now };
      if (verdict.rule !== null) this.#ruled = { agent: verdict.agent, state: verdict.state, arrival: this.#arrivals };
      this.#skipSince = null;
      this.#skipArrival = null;
    }
    return this.#recompute();
  }

  /** Feed every OSC event; answers null for events that carry no self report and change nothing. */
  observeOsc(event: OscEvent): ReportOutcome | null {
    if (event.kind === 'userVar') {
      if (!SELF_REPORT_VARIABLES.includes(event.name)) return null;
      const parsed = parseSelfReport(event.value);
      if (!parsed.ok) return this.#reject(SELF_REPORT_SOURCE, parsed.reason, parsed.detail, event.value.slice(0, 80));
      return this.#admitInband(parsed.report);
    }
    if (event.kind === 'programStatus') {
      const report = programStatusReport(event.value, this.#process.agent ?? this.#view.agent);
      if (report === 'clear') return this.#reports.has(PROGRAM_STATUS_SOURCE) ? this.#release(PROGRAM_STATUS_SOURCE, undefined) : null;
      if (report === null) return this.#reject(PROGRAM_STATUS_SOURCE, 'no_agent', 'no app= field and no agent identified', event.value.state);
      return this.#admitInband(report);
    }
    if (event.kind === 'promptMark' && event.mark === 'A') return this.#dropProgramActivity();
    return null;
  }

  /** Records a report the daemon refused before the arbiter could read it (explain lists it). */
  refuse(source: string, reason: RejectReason, detail: string): ReportOutcome {
    return this.#reject(source, reason, detail, '');
  }

  /**
   * Whether the process `pid` speaks for this pane's agent as a hook's reporter must (binding.ts): null
   * when it does, else its refusal, recorded as a report's is. A hook's question to the policy is bound so.
   */
  bindCaller(source: string, pid: number, summary: string): ReportOutcome | null {
    return this.#refuseEarly(source, pid, undefined, summary);
  }

  /** `pane.reportAgent`. */
  reportAgent(params: AgentReportParams): ReportOutcome {
    const checked = checkAgentReport(params);
    if (!checked.ok) return this.#reject(String(params.source), checked.reason, checked.detail, summarize(params));
    return this.#admit(checked.value);
  }

  /** `pane.releaseAgent`: the source's session ended; its reports stop counting and late ones are rejected. */
  releaseAgent(params: ReleaseParams): ReportOutcome {
    const checked = checkRelease(params);
    if (!checked.ok) return this.#reject(String(params.source), checked.reason, checked.detail, `release ${params.session ?? ''}`);
    const refused = this.#refuseEarly(params.source, params.pid, undefined, `release ${params.session ?? ''}`);
    if (refused) return refused;
    return this.#release(params.source, params.session);
  }

  /** `pane.reportSession`: session identity only; also reopens a released session. */
  reportSession(params: SessionReportParams): ReportOutcome {
    const checked = checkSessionReport(params);
    const summary = `session ${params.session}`;
    if (!checked.ok) return this.#reject(String(params.source), checked.reason, checked.detail, summary);
    const refused = this.#refuseEarly(params.source, params.pid, undefined, summary);
    if (refused) return refused;
    const stale = this.#sessions.check(params.session, this.#generation, params.pid !== undefined);
    if (stale && stale.reason !== 'session_ended') return this.#reject(params.source, stale.reason, stale.detail, summary);
    if (params.agent !== undefined && this.#process.agent !== null && this.#canonicalAgent(params.agent) !== this.#process.agent) {
      return this.#reject(params.source, 'identity_conflict', `the live process is ${this.#process.agent}`, summary);
    }
    this.#sessions.bind(params.session, this.#generation);
    this.#currentSession = params.session;
    this.#lastSession = { agent: this.#process.agent ?? (params.agent !== undefined ? this.#canonicalAgent(params.agent) : null) ?? this.#view.agent, session: params.session };
    return { accepted: true, changes: this.#recompute() };
  }

  /** The user saw the pane (`pane.focus`, attach): done becomes idle. */
  markSeen(): ChangeRecord[] {
    if (this.#view.seen) return [];
    return this.#apply(this.#view, 'changed', { seen: true });
  }

  /** The pane's PTY closed: publish the final state once, then nothing more is accepted. */
  paneExited(): ChangeRecord[] {
    if (this.#lifecycle === 'exited') return [];
    const changes = this.#startGeneration(UNOBSERVED);
    this.#lifecycle = 'exited';
    return changes;
  }

  /** Advance time: applies due debounces and freshness expiries. */
  tick(): ChangeRecord[] {
    // The caller detected before ticking if it could; a recheck that has run its course is spent.
    if (this.#screenRecheckAt !== null && this.#screenRecheckAt <= this.#clock.now()) this.#screenRecheckAt = null;
    return this.#lifecycle === 'exited' ? [] : this.#recompute();
  }

  /**
   * Whether the screen must be evaluated again now: the last verdict rested on a time condition
   * (a motion or quiet window) that has run its course on this clock. The caller detects, then ticks.
   */
  screenRecheckDue(): boolean {
    return this.#lifecycle === 'live' && this.#screenRecheckAt !== null && this.#screenRecheckAt <= this.#clock.now();
  }

  /** When `tick()` next has something to do (ms since epoch), or null; the daemon keeps one timer on it. */
  nextDeadline(): number | null {
    if (this.#lifecycle === 'exited') return null;
    const now = this.#clock.now();
    const deadlines: number[] = [];
    if (this.#pending) deadlines.push(this.#pending.deadline);
    if (this.#screenRecheckAt !== null) deadlines.push(Math.max(this.#screenRecheckAt, now));
    const pushedEnds = pushedExpiresAt(this.#screen?.verdict ?? null, this.#windows);
    if (pushedEnds !== null && pushedEnds > now) deadlines.push(pushedEnds);
    for (const report of this.#reports.values()) {
      const authority = reportAuthority(report, now, this.#windows);
      if (authority.changesAt !== null && authority.changesAt > now) deadlines.push(authority.changesAt);
      const lapse = identityExpiresAt(report, this.#windows) + 1;
      if (!this.#process.observable && lapse > now) deadlines.push(lapse);
    }
    return deadlines.length === 0 ? null : Math.min(...deadlines);
  }

  explain(): ArbiterExplain {
    return buildExplain({
      ...this.#decideInput(),
      view: this.view(),
      generation: this.#generation,
      pending: this.#pending,
      rejections: this.#rejections.list(),
      lastSeq: (source, session) => this.#sequence.lastOf(source, session),
    });
  }

  /** An in-band report, bound to the foreground of this moment (the moment its bytes were parsed). */
  #admitInband(report: Report): ReportOutcome {
    const binding = bindInband(report, { policy: this.#inband, process: this.#process, tree: this.#tree, canonicalAgent: this.#canonicalAgent });
    if (!binding.ok) return this.#reject(report.source, 'inband_unbound', binding.detail, summarize(report));
    return this.#admit(report, binding.group);
  }

  #admit(reported: Report, group: number | null = null): ReportOutcome {
    const report = { ...reported, agent: this.#canonicalAgent(reported.agent) };
    const summary = summarize(reported);
    const refused = this.#refuseEarly(report.source, report.pid, report.session, summary);
    if (refused) return refused;
    if (this.#process.agent !== null && report.agent !== this.#process.agent) {
      return this.#reject(report.source, 'identity_conflict', `the live process is ${this.#process.agent}; a report cannot rename it`, summary);
    }
    const now = this.#clock.now();
    const authority = reportAuthority(report, now, this.#windows);
    if (!authority.authoritative) {
      return this.#reject(report.source, authority.reason, `ts ${report.ts} is outside the freshness window`, summary);
    }
    if (report.seq !== undefined) {
      const last = this.#sequence.staleAgainst(report.source, report.session, report.seq);
      if (last !== null) return this.#reject(report.source, 'stale_seq', `seq ${report.seq} is not after ${last}`, summary);
      this.#sequence.accept(report.source, report.session, report.seq);
    } else if (report.ts !== undefined) {
      const newest = this.#lastTs.get(report.source);
      if (newest !== undefined && report.ts < newest) {
        return this.#reject(report.source, 'out_of_order', `ts ${report.ts} is older than the accepted ${newest}`, summary);
      }
    }
    if (report.ts !== undefined) this.#lastTs.set(report.source, Math.max(report.ts, this.#lastTs.get(report.source) ?? 0));
    if (report.session !== undefined) {
      this.#sessions.bind(report.session, this.#generation);
      this.#currentSession = report.session;
      this.#lastSession = { agent: this.#process.agent ?? this.#canonicalAgent(report.agent), session: report.session };
    }
    this.#arrivals += 1;
    this.#reports.set(report.source, { ...report, at: now, arrival: this.#arrivals, generation: this.#generation, ...(group !== null ? { group } : {}) });
    return { accepted: true, changes: this.#recompute() };
  }

  /** The checks every report passes before its content is read: lifecycle, binding, generation. */
  #refuseEarly(source: string, pid: number | undefined, session: string | undefined, summary: string): ReportOutcome | null {
    if (this.#lifecycle === 'exited') return this.#reject(source, 'pane_exited', 'the pane has exited', summary);
    if (pid !== undefined) {
      const binding = checkBinding(pid, this.#tree, this.#process, (agentPid) => this.#retiredAgentPids.get(agentPid));
      if (!binding.ok) return this.#reject(source, binding.reason, binding.detail, summary);
    }
    if (session !== undefined) {
      const stale = this.#sessions.check(session, this.#generation, pid !== undefined);
      if (stale) return this.#reject(source, stale.reason, stale.detail, summary);
    }
    return null;
  }

  #release(source: string, session: string | undefined): ReportOutcome {
    const released = [...this.#reports.values()].filter((report) => report.source === source && (session === undefined || report.session === session));
    if (released.length === 0 && session === undefined) {
      return this.#reject(source, 'no_report', `no report from ${source} to release`, 'release');
    }
    for (const report of released) {
      this.#reports.delete(report.source);
      if (report.session !== undefined) this.#sessions.end(report.session, this.#generation);
    }
    if (session !== undefined) this.#sessions.end(session, this.#generation);
    return { accepted: true, changes: this.#recompute() };
  }

  /** In-band reports whose process group no longer holds the terminal stop counting. */
  #dropLeftGroups(): void {
    for (const [source, report] of this.#reports) if (groupLeft(report, this.#process)) this.#reports.delete(source);
  }

  /** docs/reporting.md, "OSC 7501 program status": a new prompt (OSC 133 A) drops working and blocked records; done survives. */
  #dropProgramActivity(): ReportOutcome | null {
    const status = this.#reports.get(PROGRAM_STATUS_SOURCE);
    if (status === undefined || (status.state !== 'working' && status.state !== 'blocked')) return null;
    this.#reports.delete(PROGRAM_STATUS_SOURCE);
    return { accepted: true, changes: this.#recompute() };
  }

  #reject(source: string, reason: RejectReason, detail: string, summary: string): ReportOutcome {
    this.#rejections.record({ at: this.#clock.now(), source, reason, detail, summary });
    return { accepted: false, reason, changes: [] };
  }

  #startGeneration(observation: ProcessObservation): ChangeRecord[] {
    // The ended program draws no more frames: its last screen is final, so a pending debounce settles now.
    const settled = this.#pending ? this.#apply(decide(this.#decideInput()), 'changed') : [];
    this.#pending = null;
    const before = this.#view;
    if (before.agent !== null) this.#lastReleased = { agent: before.agent, state: before.displayed };
    if (this.#process.agentPid !== null) this.#retiredAgentPids.set(this.#process.agentPid, this.#generation);
    this.#process = { ...observation };
    this.#processKey = processKey(observation);
    this.#generation += 1;
    this.#reports.clear();
    this.#sequence.clear();
    this.#lastTs.clear();
    this.#currentSession = null;
    this.#screen = null;
    this.#ruled = null;
    this.#skipSince = null;
    this.#skipArrival = null;
    this.#pending = null;
    this.#lastKnown = null;
    this.#restored = null;
    const decision = decide(this.#decideInput());
    // The ended agent's final state is published once, as `before` of the released record.
    const next = before.agent !== null ? this.#apply(decision, 'released', { force: true }) : this.#apply(decision, 'changed');
    return [...settled, ...next];
  }

  #recompute(): ChangeRecord[] {
    const decision = decide(this.#decideInput());
    const startup = isStartupIdle(this.#view, decision, this.#lastKnown);
    if (decision.agent !== null && (startup || needsDebounce(this.#view, decision, this.#skipArrival === null ? this.#ruled : null))) {
      const windowMs = startup ? this.#windows.startupSettleMs : this.#windows.debounceMs;
      const step = debounce({ ...decision, agent: decision.agent }, this.#pending, this.#clock.now(), windowMs);
      this.#pending = step.pending;
      if (!step.apply) return [];
    } else {
      this.#pending = null;
    }
    return this.#apply(decision, 'changed');
  }

  #apply(decision: Decision, kind: ChangeRecord['kind'], options: { seen?: boolean; force?: boolean } = {}): ChangeRecord[] {
    const before = this.#view;
    const now = this.#clock.now();
    const agentChanged = decision.agent !== before.agent;
    const stateChanged = decision.state !== before.state;
    // The first state read after a restart continues the previous daemon's: same agent, same turn.
    const restored = this.#restored !== null && decision.agent === this.#restored.agent ? this.#restored : null;
    const from = restored ? restored.state : before.state === 'unknown' ? this.#lastKnown : before.state;
    const completed = (restored !== null || !agentChanged) && decision.state === 'idle' && (from === 'working' || from === 'blocked');
    const seen = options.seen ?? (completed ? false : restored ? restored.seen : before.seen);
    if (decision.state !== 'unknown' || (decision.agent !== null && restored === null)) this.#restored = null;
    const changed = options.force === true || agentChanged || stateChanged || seen !== before.seen;
    this.#view = {
      agent: decision.agent,
      identity: decision.identity,
      state: decision.state,
      displayed: decision.state === 'idle' && !seen ? 'done' : decision.state,
      seen,
      rule: decision.rule,
      source: decision.source,
      revision: changed ? before.revision + 1 : before.revision,
      stateSince: agentChanged || stateChanged ? now : before.stateSince,
      generation: this.#generation,
    };
    if (agentChanged) this.#lastKnown = null;
    if (decision.state !== 'unknown') this.#lastKnown = decision.state;
    return changed ? [{ kind, at: now, revision: this.#view.revision, before, after: { ...this.#view } }] : [];
  }

  #decideInput(): DecideInput {
    return {
      now: this.#clock.now(),
      windows: this.#windows,
      process: this.#process,
      reports: [...this.#reports.values()],
      currentSession: this.#currentSession,
      screen: this.#screen,
      skipSince: this.#skipSince,
      skipArrival: this.#skipArrival,
      ruled: this.#ruled,
      previous: { agent: this.#view.agent, state: this.#view.state },
    };
  }
}

/** Two observations with the same key are the same process; a different key starts a new generation. */
function processKey(observation: ProcessObservation): string {
  if (!observation.observable) return 'unobservable';
  if (observation.agent !== null) return `agent:${observation.agent}:${observation.agentPid ?? observation.leaderPid ?? '?'}`;
  return `leader:${observation.leaderPid ?? '?'}`;
}

function summarize(report: { agent?: unknown; state?: unknown; session?: unknown; seq?: unknown; pid?: unknown }): string {
  const parts = [String(report.agent ?? '?'), String(report.state ?? '?')];
  if (report.session !== undefined) parts.push(`session=${String(report.session)}`);
  if (report.seq !== undefined) parts.push(`seq=${String(report.seq)}`);
  if (report.pid !== undefined) parts.push(`pid=${String(report.pid)}`);
  return parts.join(' ').slice(0, 160);
}
