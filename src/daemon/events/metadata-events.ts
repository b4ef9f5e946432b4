import type { Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { EventHub } from './event-hub.ts';

/** What the metadata store offers: one call per change, with the merged metadata or null. */
export interface MetadataSource {
  onChange(listener: (paneId: string, metadata: object | null) => void): Disposable;
}

/** Publishes `metadata.changed` for every change of a pane's display metadata. */
export function publishMetadataEvents(hub: EventHub, registry: PaneRegistry, store: MetadataSource, agents: AgentService): Disposable {
  return store.onChange((paneId, metadata) => {
    const pane = registry.get(paneId);
    // A pane being disposed has no tracker any more: no agent to filter on, and no agent to carry.
    const tracked = pane !== undefined && agents.find(pane) !== undefined;
    const info = tracked ? agents.info(pane) : undefined;
    hub.publish('metadata.changed', { id: paneId, name: pane?.name ?? null }, { metadata: metadata as Record<string, unknown> | null, ...(info ? { info } : {}) }, info?.agent ?? null);
  });
}
