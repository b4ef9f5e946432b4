import type { ArbiterExplain as WireArbiterExplain } from '../protocol/explain.ts';
import type { RawState } from '../protocol/states.ts';
import type { PendingTransition } from './debounce.ts';
import { reportAuthority } from './freshness.ts';
import { isLifecycleAuthority, reportCounts, supersededByScreen, type DecideInput } from './precedence.ts';
import type { Rejection } from './rejections.ts';
import { PRECEDENCE, type AgentView, type PrecedenceRule, type ProcessObservation } from './types.ts';
import type { ArbiterWindows } from './windows.ts';

/** One piece of evidence as the arbiter sees it now. */
export interface EvidenceEntry {
  kind: 'process' | 'screen' | 'report';
  /** `process`, `screen`, or the report's source. */
  source: string;
  value: string;
  ageMs: number | null;
  /** Whether this evidence may decide now (fresh, bound, for the pane's agent). */
  authoritative: boolean;
  /** Whether this evidence made the current decision. */
  decided: boolean;
  note: string;
}

/** The arbiter's explain; the wire shape is src/protocol/explain.ts, which this must stay assignable to. */
export interface ArbiterExplain {
  view: AgentView;
  decidedBy: PrecedenceRule;
  precedence: readonly PrecedenceRule[];
  generation: number;
  observable: boolean;
  currentSession: string | null;
  evidence: EvidenceEntry[];
  pendingDebounce: { state: RawState; since: number; deadline: number; remainingMs: number } | null;
  rejections: readonly Rejection[];
  windows: ArbiterWindows;
}

export interface ExplainInput extends DecideInput {
  view: AgentView;
  generation: number;
  pending: PendingTransition | null;
  rejections: readonly Rejection[];
  lastSeq: (source: string, session: string | undefined) => number | undefined;
}

/** The arbiter's view for `agent.explain`: every evidence source, what decided, what waits, what was refused. */
export function buildExplain(input: ExplainInput): ArbiterExplain {
  const { view, now, process } = input;
  const evidence: EvidenceEntry[] = [];
  evidence.push({
    kind: 'process',
    source: 'process',
    value: process.observable ? `leader=${process.leaderPid ?? '?'} agent=${process.agent ?? 'none'} pid=${process.agentPid ?? '?'}` : 'not observable',
    ageMs: null,
    authoritative: process.agent !== null,
    decided: view.identity === 'process',
    note: process.agent !== null ? identityNote(process.identifiedBy) : 'no agent process identified',
  });
  const screenFor = (agent: string): boolean => input.screen?.verdict.agent === agent;
  if (input.screen || input.skipSince !== null) {
    const verdict = input.screen?.verdict;
    const ruleText = verdict?.rule ? `rule ${verdict.rule.id}` : `fallback ${verdict?.fallbackReason ?? ''}`.trim();
    evidence.push({
      kind: 'screen',
      source: 'screen',
      value: verdict ? `${verdict.agent} ${verdict.state} (${ruleText})` : 'none',
      ageMs: input.screen ? now - input.screen.at : null,
      authoritative: view.agent !== null && screenFor(view.agent) && view.rule !== 'full_lifecycle',
      decided: view.rule === 'screen_rule' || view.rule === 'screen_fallback' || view.rule === 'screen_skip',
      note: input.skipSince !== null ? `skip_state_update on screen for ${now - input.skipSince} ms` : view.rule === 'full_lifecycle' ? 'not used for state: full-lifecycle authority' : '',
    });
  }
  for (const report of input.reports) {
    const authority = reportAuthority(report, now, input.windows);
    const counts = reportCounts(report, input);
    const forAgent = report.agent === view.agent;
    const seq = input.lastSeq(report.source, report.session);
    const notes = [
      !authority.authoritative ? authority.reason : '',
      !counts ? (report.ended ? 'ended=1 and its reporter no longer leads' : 'identity expired') : '',
      !forAgent ? `names ${report.agent}, pane is ${view.agent ?? 'unidentified'}` : '',
      isLifecycleAuthority(report, input) ? 'full-lifecycle source' : '',
      supersededByScreen(report, input.ruled) ? `the screen showed ${input.ruled!.state} since` : '',
      seq !== undefined ? `last seq ${seq}` : '',
      report.group !== undefined ? `bound to process group ${report.group}` : '',
    ].filter((note) => note.length > 0);
    evidence.push({
      kind: 'report',
      source: report.source,
      value: `${report.agent} ${report.state}${report.session !== undefined ? ` session=${report.session}` : ''}${report.message ? ` "${report.message}"` : ''}`,
      ageMs: now - report.at,
      authoritative: authority.authoritative && counts && forAgent,
      decided: view.source === `report:${report.source}`,
      note: notes.join('; '),
    });
  }
  const pending = input.pending;
  return {
    view,
    decidedBy: view.rule,
    precedence: PRECEDENCE,
    generation: input.generation,
    observable: process.observable,
    currentSession: input.currentSession,
    evidence,
    pendingDebounce: pending ? { state: pending.state, since: pending.since, deadline: pending.deadline, remainingMs: Math.max(0, pending.deadline - now) } : null,
    rejections: input.rejections,
    windows: input.windows,
  };
}

/** Which of the pane's processes named its agent: a `CORRAL_AGENT` hint is said as such, never as the process. */
function identityNote(identifiedBy: ProcessObservation['identifiedBy']): string {
  if (identifiedBy?.by === 'hint') return `the ${identifiedBy.detail} hint in the process's environment decides identity, not its program`;
  return identifiedBy ? `the live process decides identity (${identifiedBy.detail})` : 'the live process decides identity';
}

/** Compile-time check: the arbiter's explain fits the wire type the protocol declares. */
export type ArbiterExplainFitsWire = ArbiterExplain extends WireArbiterExplain ? true : never;
const fitsWire: ArbiterExplainFitsWire = true;
void fitsWire;
