import { PANE_REPORT_METADATA } from '../../protocol/methods/metadata.ts';
import { implement, type HandlerBinding } from '../rpc/handler.ts';
import type { MetadataStore } from './metadata-store.ts';
import { assertPaneReporter } from './reporter.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

export function metadataHandlers(registry: PaneRegistry, store: MetadataStore): HandlerBinding[] {
  return [
    implement(PANE_REPORT_METADATA, ({ target, ...report }, context) => {
      const pane = registry.resolve(target);
      pane.assertRunning();
      assertPaneReporter(pane, context.connection.peer);
      return { metadata: store.report(pane.id, report) };
    }),
  ];
}
