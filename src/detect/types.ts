import type { RawState } from '../protocol/states.ts';
import type { ProgressReport } from '../terminal/snapshot.ts';

/** What detection reads: the shape of ScreenSnapshot that matters to rules. */
export interface DetectInput {
  lines: string[];
  title: string | null;
  progress: ProgressReport | null;
  /** The pane's width in cells; absent on saved screens, where the longest row stands for it. */
  cols?: number;
  /** Per row: true where the row continues the row above (a soft wrap); absent on saved screens. */
  wrapped?: readonly boolean[];
  /** The caller's clock (ms) at this snapshot; time conditions are judged only with it and a memory. */
  at?: number | null;
}

export type { ManifestRef, VisibleFlags } from '../protocol/explain.ts';
import type { ManifestRef, VisibleFlags } from '../protocol/explain.ts';

/** The outcome of evaluating one agent's manifest on one snapshot. */
export interface Verdict {
  agent: string;
  state: RawState;
  /** `weak`: present (true) only for an idle rule marked weak in its manifest. */
  rule: { id: string; priority: number; region: string; weak?: true } | null;
  fallbackReason: string | null; // set when no rule matched and the fallback decided
  visible: VisibleFlags;
  skipStateUpdate: boolean;
  manifest: ManifestRef;
  /** When this verdict could change with no new output (a motion window running out, a quiet window closing); evaluate again then. */
  recheckAt: number | null;
  /** With a clock and a memory: when the screen last changed (ms, the caller's clock). */
  screenChangedAt?: number;
}
