import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Literals, Nullable } from './schema.ts';
import { AGENT_STATES, RAW_STATES } from './states.ts';

const rawState = Literals(RAW_STATES);

/** An array the arbiter hands out as it keeps it, never copied for the wire: readonly to its readers. */
function Kept<T extends TSchema>(item: T) {
  return Type.Unsafe<readonly Static<T>[]>(Type.Array(item));
}

/** Which visible-state flags the deciding rule set (docs/manifests.md). */
export const VisibleFlags = Type.Object(
  { idle: Type.Boolean(), blocker: Type.Boolean(), working: Type.Boolean() },
  { $id: 'VisibleFlags', description: 'Which visible-state flags the deciding rule set (docs/manifests.md).' },
);
export type VisibleFlags = Static<typeof VisibleFlags>;

/** The manifest a verdict came from. */
export const ManifestRef = Type.Object(
  { id: Type.String(), version: Type.String(), source: Type.String() }, // source: 'bundled', 'user:<path>', 'catalog:<source>'
  { $id: 'ManifestRef', description: 'The manifest a verdict came from.' },
);
export type ManifestRef = Static<typeof ManifestRef>;

/** What one rule saw when detection evaluated it. */
export const RuleEvidence = Type.Object(
  {
    matcher: Nullable(Type.String()), // the matchers that passed, in order; null when the rule did not match
    regionSize: Type.Number(), // lines in the rule's region
    preview: Type.String(), // the last lines of the region, clipped
    time: Nullable(Type.String()), // the rule's time conditions as judged (motion, quiet); null when it has none
  },
  { $id: 'RuleEvidence', description: 'What one rule saw when detection evaluated it.' },
);
export type RuleEvidence = Static<typeof RuleEvidence>;

export const EvaluatedRule = Type.Object(
  { id: Type.String(), state: rawState, priority: Type.Number(), region: Type.String(), matched: Type.Boolean(), evidence: RuleEvidence },
  { $id: 'EvaluatedRule' },
);
export type EvaluatedRule = Static<typeof EvaluatedRule>;

/**
 * Detection's explain, as `agent.explain` answers it in `detection` and `corral agent explain --file
 * --json` prints it: the verdict plus every rule in evaluation order.
 */
export const DetectionExplain = Type.Object(
  {
    agent: Type.String(),
    state: rawState,
    rule: Nullable(Type.Object({ id: Type.String(), priority: Type.Number(), region: Type.String() })),
    fallbackReason: Nullable(Type.String()),
    visible: VisibleFlags,
    skipStateUpdate: Type.Boolean(),
    evaluatedRules: Type.Array(EvaluatedRule),
    manifest: ManifestRef,
  },
  { $id: 'DetectionExplain', description: "Detection's explain: the verdict plus every rule in evaluation order." },
);
export type DetectionExplain = Static<typeof DetectionExplain>;

/** One piece of evidence as the arbiter sees it now (docs/arbitration.md). */
export const ArbiterEvidence = Type.Object(
  {
    kind: Literals(['process', 'screen', 'report']),
    source: Type.String({ description: "`process`, `screen`, or the report's source." }),
    value: Type.String(),
    ageMs: Nullable(Type.Number()),
    authoritative: Type.Boolean({ description: "Whether this evidence may decide now (fresh, bound, for the pane's agent)." }),
    decided: Type.Boolean({ description: 'Whether this evidence made the current decision.' }),
    note: Type.String(),
  },
  { $id: 'ArbiterEvidence', description: 'One piece of evidence as the arbiter sees it now (docs/arbitration.md).' },
);
export type ArbiterEvidence = Static<typeof ArbiterEvidence>;

/** A refused report, kept for explain; `reason` is a stable code of docs/reporting.md. */
export const ArbiterRejection = Type.Object(
  { at: Type.Number(), source: Type.String(), reason: Type.String(), detail: Type.String(), summary: Type.String() },
  { $id: 'ArbiterRejection', description: 'A refused report, kept for explain; `reason` is a stable code of docs/reporting.md.' },
);
export type ArbiterRejection = Static<typeof ArbiterRejection>;

/** The arbiter's effective view of the pane's agent; `rule` is the precedence entry that decided. */
export const ArbiterView = Type.Object(
  {
    agent: Nullable(Type.String()),
    identity: Literals(['process', 'report', 'none']),
    state: rawState,
    displayed: Literals(AGENT_STATES),
    seen: Type.Boolean(),
    rule: Type.String(),
    source: Type.String(),
    revision: Type.Number(),
    stateSince: Type.Number(),
    generation: Type.Number(),
  },
  { $id: 'ArbiterView', description: "The arbiter's effective view of the pane's agent; `rule` is the precedence entry that decided." },
);
export type ArbiterView = Static<typeof ArbiterView>;

/** The arbiter's half of `agent.explain`: every evidence source, what decided, what waits, what was refused. */
export const ArbiterExplain = Type.Object(
  {
    view: ArbiterView,
    decidedBy: Type.String(),
    precedence: Kept(Type.String()),
    generation: Type.Number(),
    observable: Type.Boolean(),
    currentSession: Nullable(Type.String()),
    evidence: Type.Array(ArbiterEvidence),
    pendingDebounce: Nullable(Type.Object({ state: rawState, since: Type.Number(), deadline: Type.Number(), remainingMs: Type.Number() })),
    rejections: Kept(ArbiterRejection),
    windows: Type.Object(
      {
        debounceMs: Type.Number(),
        startupSettleMs: Type.Number(),
        staleAfterMs: Type.Number(),
        futureSkewMs: Type.Number(),
        identityExpiryMs: Type.Number(),
        rejectionLogSize: Type.Number(),
        historySize: Type.Number(),
      },
      { description: "The arbiter's time windows and bounds (docs/arbitration.md), in ms unless named otherwise." },
    ),
  },
  { $id: 'ArbiterExplain', description: "The arbiter's half of `agent.explain`: every evidence source, what decided, what waits, what was refused." },
);
export type ArbiterExplain = Static<typeof ArbiterExplain>;
