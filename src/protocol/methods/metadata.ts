import { defineMethod } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';

/** What one source reported for display; fields it left out are absent. Times are ms since the epoch. */
export const MetadataEntry = Type.Object(
  {
    title: Type.Optional(Type.String()),
    displayAgent: Type.Optional(Type.String()),
    stateLabel: Type.Optional(Type.String()),
    tokens: Type.Optional(Type.Number()),
    reportedAt: Type.Number(),
    expiresAt: Type.Number(),
  },
  { $id: 'MetadataEntry', description: 'What one source reported for display; fields it left out are absent. Times are ms since the epoch.' },
);
export type MetadataEntry = Static<typeof MetadataEntry>;

/**
 * A pane's display metadata (AgentInfo.metadata): each field from the latest live report that set it,
 * and every live source's own report under `sources`.
 */
export const PaneMetadata = Type.Object(
  {
    title: Type.Optional(Type.String()),
    displayAgent: Type.Optional(Type.String()),
    stateLabel: Type.Optional(Type.String()),
    tokens: Type.Optional(Type.Number()),
    sources: Type.Record(Type.String(), MetadataEntry),
  },
  {
    $id: 'PaneMetadata',
    description: "A pane's display metadata (AgentInfo.metadata): each field from the latest live report that set it, and every live source's own report under `sources`.",
  },
);
export type PaneMetadata = Static<typeof PaneMetadata>;

export const DEFAULT_METADATA_TTL_MS = 600_000;
export const MAX_METADATA_TTL_MS = 86_400_000;

export const PANE_REPORT_METADATA = defineMethod({
  name: 'pane.reportMetadata',
  summary: 'Display-only metadata for a pane (title, display agent, state label, tokens); never changes state; expires after its TTL.',
  params: Type.Object({
    target: paneTarget,
    source: Type.String({ minLength: 1, maxLength: 64 }),
    title: Type.Optional(Type.String({ maxLength: 256 })),
    displayAgent: Type.Optional(Type.String({ maxLength: 64 })),
    stateLabel: Type.Optional(Type.String({ maxLength: 64 })),
    tokens: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    ttlMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_METADATA_TTL_MS })),
  }, STRICT),
  result: Type.Object({ metadata: Nullable(PaneMetadata) }),
  errors: ['pane_not_found', 'pane_exited', 'pane_external', 'not_in_pane'],
});
