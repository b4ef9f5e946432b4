import type { RawState } from '../protocol/states.ts';
import type { Verdict } from '../detect/types.ts';
import { identityExpiresAt, reportAuthority } from './freshness.ts';
import type { StoredReport } from './report.ts';
import type { IdentitySource, PrecedenceRule, ProcessObservation } from './types.ts';
import type { ArbiterWindows } from './windows.ts';

/** The last screen verdict that did not skip the state update, and when it was observed. */
export interface ScreenEvidence {
  verdict: Verdict;
  at: number;
}

/** Everything the precedence reads; all of it already belongs to the current generation. */
export interface DecideInput {
  now: number;
  windows: ArbiterWindows;
  process: ProcessObservation;
  reports: readonly StoredReport[];
  currentSession: string | null;
  screen: ScreenEvidence | null;
  /** Since when a skip_state_update verdict is on screen, or null. */
  skipSince: number | null;
  /** The arrival order of the verdict that started the skip, comparable with `StoredReport.arrival`. */
  skipArrival: number | null;
  /** The latest verdict that matched a rule (not a skip), with its arrival order: what the screen last said. */
  ruled: RuledScreen | null;
  previous: { agent: string | null; state: RawState };
}

/** A state a screen rule showed, and when in the order of evidence. */
export interface RuledScreen {
  agent: string;
  state: RawState;
  arrival: number;
}

export interface Decision {
  agent: string | null;
  identity: IdentitySource;
  state: RawState;
  rule: PrecedenceRule;
  source: string;
}

/**
 * The precedence, top to bottom (docs/arbitration.md):
 * identity: live process, else the freshest counting report, else none;
 * state: a matched screen rule saying blocked, full-lifecycle authority, a pushed working over a weak
 * screen idle, matched screen rule, skip keeps
 * previous (unless a report is newer),
 * freshest authoritative report, screen fallback, unknown.
 */
export function decide(input: DecideInput): Decision {
  const { agent, identity } = decideIdentity(input);
  if (agent === null) return { agent, identity, state: 'unknown', rule: 'no_agent', source: 'none' };

  const candidates = input.reports
    .filter((report) => report.agent === agent && reportCounts(report, input) && reportAuthority(report, input.now, input.windows).authoritative)
    .sort((a, b) => b.arrival - a.arrival);
  const decided = (state: RawState, rule: PrecedenceRule, source: string): Decision => ({ agent, identity, state, rule, source });

  const verdict = input.screen?.verdict.agent === agent ? input.screen.verdict : null;
  // A question on screen waits for the user whatever any report says: hooks miss dialogs they did not raise.
  if (input.skipArrival === null && verdict?.rule && verdict.state === 'blocked') return decided('blocked', 'screen_rule', `screen:${verdict.rule.id}`);

  const authority = identity === 'process' ? candidates.find((report) => isLifecycleAuthority(report, input)) : undefined;
  if (authority) return decided(authority.state, 'full_lifecycle', `report:${authority.source}`);

  const freshest = candidates[0];
  // The program's own word that it works outranks a cue it also draws through a turn (Claude Code
  // 2.1.332's prompt box under a streaming answer), while the screen keeps moving or has been still
  // for less than the quiet window.
  // It keeps a turn working; it does not start one over an idle already published: a turn starts with
  // a spinner (2.1.332 streams), and a hook that comes late after an Esc would make a second done.
  const keepsTurn = input.previous.agent !== agent || input.previous.state !== 'idle';
  if (input.skipArrival === null && keepsTurn && freshest?.state === 'working' && verdict !== null && pushedOutranks(verdict, input.now, input.windows)) {
    return decided('working', 'pushed_working', `report:${freshest.source}`);
  }
  if (input.skipArrival !== null) {
    // The screen shows a view that says nothing of the state: keep the previous one, unless a report came since.
    if (freshest && freshest.arrival > input.skipArrival) return decided(freshest.state, 'report', `report:${freshest.source}`);
    const kept = input.previous.agent === agent ? input.previous.state : 'unknown';
    return decided(kept, 'screen_skip', 'previous');
  }
  if (verdict?.rule) return decided(verdict.state, 'screen_rule', `screen:${verdict.rule.id}`);
  // Mid-redraw no rule matches: a report the screen contradicted after it arrived is history, not news
  // (Qwen Code 0.24.4: the last turn's Stop read as done in a frame between two working ones, issue 39).
  const current = candidates.find((report) => !supersededByScreen(report, input.ruled));
  if (current) return decided(current.state, 'report', `report:${current.source}`);
  if (verdict) return decided(verdict.state, 'screen_fallback', `fallback:${verdict.fallbackReason ?? 'no_rule_matched'}`);
  return decided('unknown', 'no_evidence', 'none');
}

/** Whether a pushed working report outranks this verdict now: a weak idle on a screen not still for too long. */
export function pushedOutranks(verdict: Verdict, now: number, windows: ArbiterWindows): boolean {
  if (verdict.state !== 'idle' || verdict.rule?.weak !== true) return false;
  return verdict.screenChangedAt === undefined || now - verdict.screenChangedAt <= windows.pushedQuietMs;
}

/** When a pushed working stops outranking the verdict with no new output, or null. */
export function pushedExpiresAt(verdict: Verdict | null, windows: ArbiterWindows): number | null {
  if (verdict === null || verdict.state !== 'idle' || verdict.rule?.weak !== true || verdict.screenChangedAt === undefined) return null;
  return verdict.screenChangedAt + windows.pushedQuietMs + 1;
}

/** Whether a screen rule showed another state after this report arrived. */
export function supersededByScreen(report: StoredReport, ruled: RuledScreen | null): boolean {
  return ruled !== null && ruled.agent === report.agent && ruled.arrival > report.arrival && ruled.state !== report.state;
}

function decideIdentity(input: DecideInput): { agent: string | null; identity: IdentitySource } {
  if (input.process.agent !== null) return { agent: input.process.agent, identity: 'process' };
  let freshest: StoredReport | null = null;
  for (const report of input.reports) {
    if (reportCounts(report, input) && (freshest === null || report.arrival > freshest.arrival)) freshest = report;
  }
  return freshest ? { agent: freshest.agent, identity: 'report' } : { agent: null, identity: 'none' };
}

/**
 * Whether an accepted report still speaks for the pane. `ended=1` counts only once its reporter is no
 * longer the foreground leader; where no process is observable, the identity lapses after its window.
 */
export function reportCounts(report: StoredReport, input: Pick<DecideInput, 'now' | 'windows' | 'process'>): boolean {
  const { process } = input;
  if (report.ended) {
    const reporterLeads = process.observable && process.leaderPid !== null && (report.pid === undefined || report.pid === process.leaderPid);
    if (!reporterLeads) return false;
  }
  if (!process.observable && input.now > identityExpiresAt(report, input.windows)) return false;
  return true;
}

/** A full-lifecycle source decides while its agent lives and it speaks for the current session. */
export function isLifecycleAuthority(report: StoredReport, input: Pick<DecideInput, 'process' | 'currentSession'>): boolean {
  const sources = input.process.fullLifecycleSources ?? [];
  if (input.process.agent === null || !sources.includes(report.source)) return false;
  return (report.session ?? null) === input.currentSession || report.session === undefined;
}
