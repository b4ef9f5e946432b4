import { PANE_DETACHED, PANE_OUTPUT, type DetachReason } from '../../protocol/methods/attach.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { Connection } from '../rpc/connection.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import { redrawSequence, withoutScreenSwitches } from '../panes/redraw.ts';

/**
 * Bytes the client has not yet taken above which live output is no longer sent: the client has
 * fallen behind, and gets one fresh redraw once it catches up instead of the bytes it missed.
 * The pane never waits on a client, and the daemon holds at most this much (plus one chunk) per client.
 */
export const BEHIND_BYTES = 1024 * 1024;
/** Unsent bytes below which a client that fell behind is caught up with a redraw. */
const CAUGHT_UP_BYTES = 64 * 1024;
/** While a client is behind, how often to look whether it caught up (output may have stopped). */
export const CATCH_UP_CHECK_MS = 100;

type AttachmentLifecycle = 'live' | 'behind' | 'ended';

/** One connection mirroring one pane: a redraw, then the pane's raw output, as pane.output notifications. */
export class Attachment implements Disposable {
  private current: AttachmentLifecycle = 'live';
  private readonly subscriptions = new DisposableStore();
  private catchUpTimer: NodeJS.Timeout | null = null;
  private alternateScreen: boolean;
  /** How many times the client fell behind and was caught up with a redraw; for tests and logs. */
  skips = 0;

  constructor(
    readonly pane: PaneRecord,
    readonly connection: Connection,
    private readonly ended: (attachment: Attachment) => void,
  ) {
    this.alternateScreen = pane.terminal.modes.alternateScreen;
    this.sendRedraw();
    this.subscriptions.add(pane.terminal.onData((data) => this.forward(data)));
    // The record's own exit listener ran first (registered at spawn), so pane.exit is set here.
    this.subscriptions.add(pane.terminal.onExit(() => this.end('exited')));
    this.subscriptions.add(connection.onClose(() => this.dispose()));
  }

  get lifecycle(): AttachmentLifecycle {
    return this.current;
  }

  /** Paints the whole screen again (a client asked, or the pane was resized). */
  sendRedraw(): void {
    if (this.current === 'ended') return;
    this.connection.notify(PANE_OUTPUT, { id: this.pane.id, data: redrawSequence(this.pane.terminal), redraw: true });
  }

  /**
   * The daemon ends the attachment: tells the client why, then forgets it. A client behind when the
   * pane exits gets the last screen first (the pane's tail is parsed before its exit is told,
   * src/terminal/screen-pane.ts finishExit), so it never ends on output it never got.
   */
  end(reason: DetachReason): void {
    if (this.current === 'ended') return;
    if (this.current === 'behind' && reason === 'exited') this.sendRedraw();
    const exit = this.pane.exit;
    this.connection.notify(PANE_DETACHED, {
      id: this.pane.id,
      reason,
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
    });
    this.dispose();
  }

  dispose(): void {
    if (this.current === 'ended') return;
    this.current = 'ended';
    this.subscriptions.dispose();
    this.stopCatchUpCheck();
    this.ended(this);
  }

  private forward(data: string): void {
    if (this.current === 'ended') return;
    const switched = this.pane.terminal.modes.alternateScreen !== this.alternateScreen;
    this.alternateScreen = this.pane.terminal.modes.alternateScreen;
    if (this.current === 'behind') return this.checkCaughtUp();
    if (this.connection.bufferedBytes > BEHIND_BYTES) return this.fallBehind();
    if (switched) return this.sendRedraw();
    this.connection.notify(PANE_OUTPUT, { id: this.pane.id, data: withoutScreenSwitches(data), redraw: false });
  }

  private fallBehind(): void {
    this.current = 'behind';
    this.catchUpTimer = setInterval(() => this.checkCaughtUp(), CATCH_UP_CHECK_MS);
    this.catchUpTimer.unref();
  }

  private checkCaughtUp(): void {
    if (this.current !== 'behind' || this.connection.bufferedBytes > CAUGHT_UP_BYTES) return;
    this.current = 'live';
    this.skips += 1;
    this.stopCatchUpCheck();
    this.sendRedraw();
  }

  private stopCatchUpCheck(): void {
    if (this.catchUpTimer !== null) clearInterval(this.catchUpTimer);
    this.catchUpTimer = null;
  }
}
