import { CorralError } from '../../protocol/errors.ts';
import { PANE_RECORD } from '../../protocol/methods/record.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { Connection } from '../rpc/connection.ts';
import { implement, type DaemonPart, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { Recording } from './recording.ts';

/** Every recording by pane and connection; one per connection and pane (recording again is refused). */
class RecordService implements Disposable {
  private readonly recordings = new Set<Recording>();
  private readonly subscriptions = new DisposableStore();

  constructor(registry: PaneRegistry) {
    this.subscriptions.add(
      registry.onRemoved((info) => {
        for (const recording of [...this.recordings]) if (recording.pane.id === info.id) recording.end('removed');
      }),
    );
  }

  record(pane: PaneRecord, connection: Connection, input: boolean): Recording {
    pane.assertRunning();
    for (const recording of this.recordings) {
      if (recording.pane === pane && recording.connection === connection) {
        throw new CorralError('invalid_params', `this connection already records pane ${pane.label()}`, { field: 'target' });
      }
    }
    const recording = new Recording(pane, connection, input, (ended) => this.recordings.delete(ended));
    this.recordings.add(recording);
    return recording;
  }

  dispose(): void {
    this.subscriptions.dispose();
    for (const recording of [...this.recordings]) recording.dispose();
  }
}

/** `pane.record`: the recordings and the method that starts one. */
export function startRecord(registry: PaneRegistry): DaemonPart {
  const recordings = new RecordService(registry);
  return { handlers: recordHandlers(registry, recordings), dispose: () => recordings.dispose() };
}

function recordHandlers(registry: PaneRegistry, recordings: RecordService): HandlerBinding[] {
  return [
    // A recovered pane is recorded once its ring is replayed, so the first redraw is its real screen.
    implement(PANE_RECORD, async ({ target, input }, { connection, signal }) => {
      const pane = await registry.resolveReplayed(target);
      if (signal.aborted) throw new CorralError('cancelled', 'the client went away before the recording started');
      const startedAt = Date.now();
      // As for an attachment, the first chunk (the redraw) goes out before this reply.
      recordings.record(pane, connection, input === true);
      return { id: pane.id, name: pane.name, cols: pane.terminal.cols, rows: pane.terminal.rows, startedAt };
    }),
  ];
}
