import type { AgentState, RawState } from './states.ts';

/** Which visible-state flags the deciding rule set (docs/manifests.md). */
export interface VisibleFlags {
  idle: boolean;
  blocker: boolean;
  working: boolean;
}

/** The manifest a verdict came from. */
export interface ManifestRef {
  id: string;
  version: string;
  source: string; // 'bundled', 'user:<path>', 'catalog:<source>'
}

/** What one rule saw when detection evaluated it. */
export interface RuleEvidence {
  matcher: string | null; // the matchers that passed, in order; null when the rule did not match
  regionSize: number; // lines in the rule's region
  preview: string; // the last lines of the region, clipped
  time: string | null; // the rule's time conditions as judged (motion, quiet); null when it has none
}

export interface EvaluatedRule {
  id: string;
  state: RawState;
  priority: number;
  region: string;
  matched: boolean;
  evidence: RuleEvidence;
}

/**
 * Detection's explain, as `agent.explain` answers it in `detection` and `corral agent explain --file
 * --json` prints it: the verdict plus every rule in evaluation order.
 */
export interface DetectionExplain {
  agent: string;
  state: RawState;
  rule: { id: string; priority: number; region: string } | null;
  fallbackReason: string | null;
  visible: VisibleFlags;
  skipStateUpdate: boolean;
  evaluatedRules: EvaluatedRule[];
  manifest: ManifestRef;
}

/** One piece of evidence as the arbiter sees it now (docs/arbitration.md). */
export interface ArbiterEvidence {
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

/** A refused report, kept for explain; `reason` is a stable code of docs/reporting.md. */
export interface ArbiterRejection {
  at: number;
  source: string;
  reason: string;
  detail: string;
  summary: string;
}

/** The arbiter's effective view of the pane's agent; `rule` is the precedence entry that decided. */
export interface ArbiterView {
  agent: string | null;
  identity: 'process' | 'report' | 'none';
  state: RawState;
  displayed: AgentState;
  seen: boolean;
  rule: string;
  source: string;
  revision: number;
  stateSince: number;
  generation: number;
}

/** The arbiter's half of `agent.explain`: every evidence source, what decided, what waits, what was refused. */
export interface ArbiterExplain {
  view: ArbiterView;
  decidedBy: string;
  precedence: readonly string[];
  generation: number;
  observable: boolean;
  currentSession: string | null;
  evidence: ArbiterEvidence[];
  pendingDebounce: { state: RawState; since: number; deadline: number; remainingMs: number } | null;
  rejections: readonly ArbiterRejection[];
  /** The arbiter's time windows and bounds (docs/arbitration.md), in ms unless named otherwise. */
  windows: {
    debounceMs: number;
    startupSettleMs: number;
    staleAfterMs: number;
    futureSkewMs: number;
    identityExpiryMs: number;
    rejectionLogSize: number;
    historySize: number;
  };
}
