import { PANE_RECORD_ENDED, PANE_RECORDED, RECORDER_BEHIND_BYTES, type RecordEndReason } from '../../protocol/methods/record.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { Connection } from '../rpc/connection.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import { redrawSequence } from '../panes/redraw.ts';

/**
 * One connection recording one pane: the current screen as a redraw, then every chunk of output as
 * the program wrote it (screen switches included, unlike an attachment), and with `input` what is
 * written to the program. A watcher only: it never resizes the pane nor marks it seen. A recorder that
 * falls behind is ended (`behind`) rather than handed a recording with a silent gap.
 */
export class Recording implements Disposable {
  private readonly subscriptions = new DisposableStore();
  private ended = false;

  constructor(
    readonly pane: PaneRecord,
    readonly connection: Connection,
    input: boolean,
    private readonly forget: (recording: Recording) => void,
  ) {
    this.send('o', redrawSequence(pane.terminal));
    this.subscriptions.add(pane.terminal.onData((data) => this.send('o', data)));
    if (input) this.subscriptions.add(pane.onInput((data) => this.send('i', data)));
    this.subscriptions.add(pane.terminal.onExit(() => this.end('exited')));
    this.subscriptions.add(connection.onClose(() => this.dispose()));
  }

  /** The daemon ends the recording: tells the recorder why, then forgets it. */
  end(reason: RecordEndReason): void {
    if (this.ended) return;
    const exit = this.pane.exit;
    this.connection.notify(PANE_RECORD_ENDED, { id: this.pane.id, reason, exitCode: exit?.exitCode ?? null, signal: exit?.signal ?? null });
    this.dispose();
  }

  dispose(): void {
    if (this.ended) return;
    this.ended = true;
    this.subscriptions.dispose();
    this.forget(this);
  }

  private send(code: 'o' | 'i', data: string): void {
    if (this.ended) return;
    if (this.connection.bufferedBytes > RECORDER_BEHIND_BYTES) return this.end('behind');
    this.connection.notify(PANE_RECORDED, { id: this.pane.id, code, data, at: Date.now() });
  }
}
