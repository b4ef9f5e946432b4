import type { Disposable } from '../../terminal/types.ts';
import type { PaneRegistry } from '../pane-registry.ts';
import type { EventHub } from './event-hub.ts';

/** What the metadata store offers: one call per change, with the merged metadata or null. */
export interface MetadataSource {
  onChange(listener: (paneId: string, metadata: object | null) => void): Disposable;
}

/** Publishes `metadata.changed` for every change of a pane's display metadata. */
export function publishMetadataEvents(hub: EventHub, registry: PaneRegistry, store: MetadataSource): Disposable {
  return store.onChange((paneId, metadata) => {
    const pane = registry.list().find((p) => p.id === paneId);
    hub.publish('metadata.changed', { id: paneId, name: pane?.name ?? null }, { metadata: metadata as Record<string, unknown> | null });
  });
}
