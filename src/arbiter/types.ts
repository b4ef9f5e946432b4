import type { AgentState, RawState } from '../protocol/states.ts';

/** The arbiter's only view of time: milliseconds since the epoch. Injected so tests need no timers. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** One process on the way from a reporter up to the pane's root. */
export interface LineageEntry {
  pid: number;
  /** The agent this process runs by its own executable or arguments (manifest identity), or null. */
  agent: string | null;
  /** The agent a CORRAL_AGENT hint names when this process set it (differs from its parent's), or null. */
  hinted: string | null;
}

/** Queries on the pane's process tree, answered by the daemon from /proc at the moment of a report. */
export interface ProcessTree {
  /** From pid (first) up to the pane's root process (last), or null when pid is not in the pane. */
  lineage(pid: number): LineageEntry[] | null;
  /**
   * Whether pid is a job-control shell: it ignores SIGTTOU, as such a shell does to hand the terminal
   * to its jobs and take it back. While it leads the foreground it waits at its prompt. Absent: none is.
   */
  isJobControlShell?(pid: number): boolean;
}

/** What the daemon knows of the pane's foreground, fed on every change of it. */
export interface ProcessObservation {
  /** False where the pane's processes cannot be read (no /proc, a remote or serial pane). */
  observable: boolean;
  /** The foreground process group leader, or null when unknown. */
  leaderPid: number | null;
  /** The foreground process group, which in-band reports are bound to; null or absent when unknown. */
  pgid?: number | null;
  /** The agent the identity matcher found in the foreground group, or null. */
  agent: string | null;
  /** The identified agent's own process (above wrappers and tool children), or null. */
  agentPid: number | null;
  /** What named the agent: a member's CORRAL_AGENT hint, or the process itself (`detail`: the hint, or the path, package or pattern that matched). */
  identifiedBy?: { by: 'hint' | 'process'; detail: string };
  /** Report sources the agent's manifest declares full-lifecycle (`full_lifecycle_sources`). */
  fullLifecycleSources?: readonly string[];
}

/** Which entry of the precedence list decided the state (docs/arbitration.md). */
export const PRECEDENCE = [
  'no_agent',
  'full_lifecycle',
  'pushed_working',
  'screen_rule',
  'screen_skip',
  'report',
  'screen_fallback',
  'no_evidence',
] as const;
export type PrecedenceRule = (typeof PRECEDENCE)[number];

/** How the pane's agent was identified. */
export type IdentitySource = 'process' | 'report' | 'none';

/** The effective agent of one pane: what `agent.get` answers. */
export interface AgentView {
  agent: string | null;
  identity: IdentitySource;
  state: RawState;
  /** `done` when idle and not seen; otherwise the raw state. */
  displayed: AgentState;
  seen: boolean;
  rule: PrecedenceRule;
  /** `screen:<rule id>`, `fallback:<reason>`, `report:<source>`, `previous` or `none`. */
  source: string;
  revision: number;
  /** When state or agent last changed (ms since epoch). */
  stateSince: number;
  generation: number;
}

/** One published change; the daemon stamps its global state_change_seq on it. */
export interface ChangeRecord {
  /** `released`: the agent's process ended; `before` carries its final state, published once. */
  kind: 'changed' | 'released';
  at: number;
  revision: number;
  before: AgentView;
  after: AgentView;
}

export const REJECT_REASONS = [
  'pane_exited',
  'invalid_report',
  'reserved_source',
  'unknown_version',
  'not_in_pane',
  'not_under_agent',
  'nested_agent',
  'stale_generation',
  'session_ended',
  'identity_conflict',
  'no_agent',
  'stale_ts',
  'future_ts',
  'stale_seq',
  'out_of_order',
  'no_report',
  'pid_mismatch',
  'inband_unbound',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** The answer to a report: rejections are answers, never errors, so hooks stay quiet. */
export interface ReportResult {
  accepted: boolean;
  reason?: RejectReason;
}

export interface ReportOutcome extends ReportResult {
  changes: ChangeRecord[];
}
