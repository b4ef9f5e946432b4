import { defineMethod, returns } from '../method.ts';
import { int, optional, params, str } from '../validate.ts';
import { paneTarget } from '../pane-target.ts';

/** What one source reported for display; fields it left out are absent. Times are ms since the epoch. */
export interface MetadataEntry {
  title?: string;
  displayAgent?: string;
  stateLabel?: string;
  tokens?: number;
  reportedAt: number;
  expiresAt: number;
}

/**
 * A pane's display metadata (AgentInfo.metadata): each field from the latest live report that set it,
 * and every live source's own report under `sources`.
 */
export type PaneMetadata = {
  title?: string;
  displayAgent?: string;
  stateLabel?: string;
  tokens?: number;
  sources: Record<string, MetadataEntry>;
};

export const DEFAULT_METADATA_TTL_MS = 600_000;
export const MAX_METADATA_TTL_MS = 86_400_000;

export const PANE_REPORT_METADATA = defineMethod({
  name: 'pane.reportMetadata',
  summary: 'Display-only metadata for a pane (title, display agent, state label, tokens); never changes state; expires after its TTL.',
  params: params({
    target: paneTarget,
    source: str({ min: 1, max: 64 }),
    title: optional(str({ max: 256 })),
    displayAgent: optional(str({ max: 64 })),
    stateLabel: optional(str({ max: 64 })),
    tokens: optional(int({ min: 0, max: Number.MAX_SAFE_INTEGER })),
    ttlMs: optional(int({ min: 1, max: MAX_METADATA_TTL_MS })),
  }),
  result: returns<{ metadata: PaneMetadata | null }>(),
  errors: ['pane_not_found', 'pane_exited', 'pane_external', 'not_in_pane'],
});
