import type { Disposable } from '../../base/disposable.ts';
import type { Logger } from '../logger.ts';
import type { PaneRegistry } from './pane-registry.ts';

/**
 * Keeps at most `keep` exited panes: when one more exits, the ones that exited first are removed
 * (published as `pane.removed`), as `pane.kill` would. Running and lost panes are never touched.
 */
export function retainExitedPanes(registry: PaneRegistry, keep: number, log: Logger): Disposable {
  return registry.onExited(() => {
    const exited = registry
      .list()
      .filter((pane) => pane.lifecycle === 'exited')
      .sort((a, b) => (a.info().exitedAt ?? 0) - (b.info().exitedAt ?? 0));
    for (const pane of exited.slice(0, Math.max(0, exited.length - keep))) {
      log.info({ pane: pane.id, keep }, 'exited pane removed: more than [panes] keep_exited exited panes');
      void registry.remove(pane);
    }
  });
}
