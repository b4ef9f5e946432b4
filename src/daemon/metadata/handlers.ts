import { PANE_REPORT_METADATA } from '../../protocol/methods/metadata.ts';
import type { DaemonCore } from '../agents/core.ts';
import { implement, type DaemonPart, type HandlerBinding } from '../rpc/handler.ts';
import { MetadataStore } from './metadata-store.ts';
import { assertPaneReporter } from './reporter.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

/** Display-only metadata: the store with its TTLs and the method that reports it. */
export function startMetadata(core: DaemonCore): DaemonPart & { readonly store: MetadataStore } {
  const store = new MetadataStore(core);
  const metadata = core.agents.registerExtra('metadata', (paneId) => store.get(paneId));
  return {
    store,
    handlers: metadataHandlers(core.registry, store),
    dispose: () => {
      metadata.dispose();
      store.dispose();
    },
  };
}

function metadataHandlers(registry: PaneRegistry, store: MetadataStore): HandlerBinding[] {
  return [
    implement(PANE_REPORT_METADATA, ({ target, ...report }, context) => {
      const pane = registry.resolve(target);
      pane.assertRunning();
      assertPaneReporter(pane, context.connection.peer);
      return { metadata: store.report(pane.id, report) };
    }),
  ];
}
