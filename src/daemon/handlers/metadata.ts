import { PANE_REPORT_METADATA } from '../../protocol/methods/metadata.ts';
import { implement, type HandlerBinding } from '../handler.ts';
import type { MetadataStore } from '../metadata/metadata-store.ts';
import type { PaneRegistry } from '../pane-registry.ts';

export function metadataHandlers(registry: PaneRegistry, store: MetadataStore): HandlerBinding[] {
  return [
    implement(PANE_REPORT_METADATA, ({ target, ...report }) => {
      const pane = registry.resolve(target);
      pane.assertRunning();
      return { metadata: store.report(pane.id, report) };
    }),
  ];
}
