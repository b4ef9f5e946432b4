/**
 * The arbiter: one pure state machine per pane (`PaneArbiter`) that merges process identity, screen
 * verdicts, in-band self reports and hook reports into one effective agent state. No timers, no I/O:
 * time comes from the injected `Clock`, process ancestry from the injected `ProcessTree`.
 *
 * Wiring, for the daemon (one arbiter per pane):
 *   const arbiter = new PaneArbiter({ clock: systemClock, tree: { lineage } });
 *   inputs, each returning the ChangeRecord[] to publish (empty when nothing visible changed):
 *     arbiter.observeProcess({ observable, leaderPid, agent, agentPid, fullLifecycleSources })
 *                                            on every foreground change (and once at pane start);
 *     arbiter.observeScreen(verdict)         after each detection pass on the arbiter's `view().agent`;
 *     arbiter.observeOsc(event)              for every OscEvent; null when the event is not a report;
 *     arbiter.reportAgent(params) / releaseAgent(params) / reportSession(params)
 *                                            for pane.reportAgent / releaseAgent / reportSession; answer
 *                                            `{accepted, reason}` to the caller and publish `.changes`;
 *     arbiter.markSeen()                     on pane.focus and attach (never on reads);
 *     arbiter.paneExited()                   once the PTY stream closed;
 *     arbiter.tick()                         when the timer for `nextDeadline()` fires.
 *   After every input, re-arm ONE timer at `arbiter.nextDeadline()` (null: none needed).
 *   outputs: `view()` for agent.get, `explain()` for agent.explain; each ChangeRecord gets the daemon's
 *   global state_change_seq. A `released` record carries the ended agent's final state in `before`.
 *
 * Precedence and windows: docs/arbitration.md. Report protocol for agent authors: docs/reporting.md.
 */
export { PaneArbiter, type PaneArbiterOptions } from './pane-arbiter.ts';
export { MAX_REMEMBERED_REPORTS, type ArbiterMemory } from './memory.ts';
export { INBAND_POLICIES, type InbandPolicy } from './inband-binding.ts';
export {
  systemClock,
  PRECEDENCE,
  REJECT_REASONS,
  type AgentView,
  type ChangeRecord,
  type Clock,
  type IdentitySource,
  type PrecedenceRule,
  type ProcessObservation,
  type LineageEntry,
  type ProcessTree,
  type RejectReason,
  type ReportOutcome,
  type ReportResult,
} from './types.ts';
export type { AgentReportParams, ReleaseParams, SessionReportParams } from './hook-report.ts';
export type { ArbiterExplain, EvidenceEntry } from './explain.ts';
export type { Rejection } from './rejections.ts';
export { DEFAULT_WINDOWS, type ArbiterWindows } from './windows.ts';
export { parseSelfReport, programStatusReport, SELF_REPORT_VARIABLES } from './self-report.ts';
export { REPORT_LIMITS } from './limits.ts';
export { SELF_REPORT_SOURCE, PROGRAM_STATUS_SOURCE } from './report.ts';
