import { CorralError } from '../../protocol/errors.ts';
import { PANE_ATTACH, PANE_DETACH } from '../../protocol/methods/attach.ts';
import type { DaemonCore } from '../agents/core.ts';
import { AttachService } from './attach-service.ts';
import { implement, type DaemonPart, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

/** Attached clients of panes: the service and `pane.attach` / `pane.detach`. */
export function startAttach({ registry, agents, log }: DaemonCore): DaemonPart {
  const attachments = new AttachService(registry, agents, log);
  return { handlers: attachHandlers(registry, attachments), dispose: () => attachments.dispose() };
}

function attachHandlers(registry: PaneRegistry, attachments: AttachService): HandlerBinding[] {
  return [
    // The redraw is the screen, and the output after it is live only: a recovered pane is attached once its ring is replayed.
    implement(PANE_ATTACH, async ({ target, cols, rows }, { connection, signal }) => {
      const pane = await registry.resolveReplayed(target);
      // A client gone during the wait is attached to nothing: its connection's close has been told already.
      if (signal.aborted) throw new CorralError('cancelled', 'the client went away before the pane was attached');
      pane.assertRunning();
      // The attaching terminal's size wins; the program redraws on SIGWINCH, after the first paint.
      if (cols !== undefined || rows !== undefined) {
        pane.terminal.resize(cols ?? pane.terminal.cols, rows ?? pane.terminal.rows);
      }
      attachments.attach(pane, connection);
      return { id: pane.id, name: pane.name, cols: pane.terminal.cols, rows: pane.terminal.rows };
    }),

    implement(PANE_DETACH, ({ target }, { connection }) => ({
      detached: attachments.detach(registry.resolve(target), connection),
    })),
  ];
}
