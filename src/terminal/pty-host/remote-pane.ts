import type { Disposable } from '../../base/disposable.ts';
import type { ExitInfo } from '../types.ts';
import { ScreenPane } from '../screen-pane.ts';
import { HIGH_WATERMARK, LOW_WATERMARK } from '../output-pump.ts';
import { OutputText } from '../output-text.ts';
import type { HostClient, HostPaneSink } from './host-client.ts';
import type { HostExit, HostPaneInfo } from './wire.ts';

/** Why a pane whose host went away counts as lost rather than exited. */
export const HOST_LOST_REASON = 'the pty host went away: the pane is lost';

/**
 * A pane whose PTY lives in the pty host: output arrives over the host's socket and is parsed into
 * a headless screen here. A recovered pane first replays the host's ring into a fresh screen with
 * no listener told and no answer sent back, then nudges the size so full-screen programs redraw.
 */
export class RemotePane extends ScreenPane implements HostPaneSink {
  readonly handle: number;
  /** Bytes the host dropped from the ring before this daemon attached. */
  readonly dropped: number;
  readonly recovered: boolean;
  readonly outputEndedAt: number | null;
  private pausedHost = false;
  private readonly text = new OutputText();
  private readonly replayed$: Promise<void>;
  private resolveReplayed!: () => void;
  private readonly adoption: Disposable;
  private pendingExit: HostExit | null = null;
  /** Input bytes sent to the host, received by it (as it last said), and not read by the program there. */
  private inputSent: number;
  private inputReceived: number;
  private inputUnread = 0;

  constructor(
    private readonly client: HostClient,
    info: HostPaneInfo,
    options: { recovered: boolean },
  ) {
    super(info.pid, info, options.recovered ? 'replaying' : 'running');
    this.handle = info.handle;
    this.dropped = info.dropped;
    this.recovered = options.recovered;
    this.outputEndedAt = info.lastOutputAt ?? null;
    this.inputSent = this.inputReceived = info.inputReceived;
    this.replayed$ = new Promise((resolve) => (this.resolveReplayed = resolve));
    if (!options.recovered) this.resolveReplayed();
    this.adoption = client.adopt(this.handle, this);
    if (info.exit !== null && !options.recovered) void this.exit(info.exit);
    else if (info.exit !== null) this.pendingExit = info.exit;
  }

  /** Resolves once a recovered pane's ring is parsed and its size nudged. */
  get replayed(): Promise<void> {
    return this.replayed$;
  }

  // --- the host's side (HostPaneSink) ---

  replay(data: Buffer): void {
    if (this.lifecycle !== 'replaying') return;
    // Bytes go to the emulator as they came: it decodes UTF-8 itself, a character split between frames included.
    this.screen.write(data, () => {
      this.text.decode(data, false);
      void this.finishReplay();
    });
  }

  output(data: Buffer): void {
    if (this.lifecycle === 'disposed') return;
    this.screen.write(data, () => this.onParsed(data));
    if (this.screen.unparsedLength > HIGH_WATERMARK && !this.pausedHost) {
      this.pausedHost = true;
      this.client.send({ t: 'pause', handle: this.handle });
    }
  }

  exit(exit: HostExit): void {
    if (this.lifecycle === 'replaying') {
      this.pendingExit = exit;
      return;
    }
    void this.end(exit);
  }

  input(received: number, pending: number): void {
    this.inputReceived = received;
    this.inputUnread = pending;
  }

  lost(): void {
    if (this.lifecycle === 'exited' || this.lifecycle === 'disposed' || this.lifecycle === 'exiting') return;
    this.reason = HOST_LOST_REASON;
    void this.end({ exitCode: null, signal: null, reason: HOST_LOST_REASON }, true);
  }

  // --- the daemon's side (TerminalPane) ---

  write(data: string): void {
    if (this.attached) this.sendInput(data);
  }

  protected answer(data: string): void {
    // Not to queries replayed from the ring: the program asked them of an earlier screen.
    if (this.lifecycle === 'running') this.sendInput(data);
  }

  private sendInput(data: string): void {
    this.inputSent += Buffer.byteLength(data, 'utf8');
    this.client.input(this.handle, data);
  }

  protected resizePty(cols: number, rows: number): void {
    this.client.send({ t: 'resize', handle: this.handle, cols, rows });
  }

  /** Input the program has not read: what waits in the pty host plus what is on its way there. */
  get pendingInput(): number {
    if (!this.attached) return 0;
    return this.inputUnread + (this.inputSent - this.inputReceived);
  }

  /** The host runs the one policy (SIGHUP, SIGKILL after KILL_GRACE_MS), even if this daemon stops meanwhile. */
  terminate(): Promise<ExitInfo> {
    if (this.attached && this.reason === null) {
      this.reason = 'terminate requested: SIGHUP sent to the session';
      this.client.send({ t: 'terminate', handle: this.handle });
    }
    return this.whenExited;
  }

  dispose(): void {
    if (this.lifecycle === 'disposed') return;
    if (this.attached || this.lifecycle === 'exiting') {
      this.reason ??= 'disposed while running: SIGKILL sent to the session';
      this.client.send({ t: 'kill', handle: this.handle });
    }
    this.client.send({ t: 'forget', handle: this.handle });
    this.letGo();
  }

  /** Leaves the PTY running in the host (the daemon stops, the agent does not). */
  detach(): void {
    if (this.lifecycle === 'disposed') return;
    this.letGo();
  }

  private letGo(): void {
    this.resolveReplayed();
    this.adoption.dispose();
    this.release();
  }

  private async finishReplay(): Promise<void> {
    if (this.lifecycle !== 'replaying') return;
    this.lifecycle = 'running';
    if (this.pendingExit === null) {
      // Full-screen programs repaint on SIGWINCH, and the kernel sends it only when the size changes.
      const { cols, rows } = this.screen;
      this.client.send({ t: 'resize', handle: this.handle, cols, rows: rows > 2 ? rows - 1 : rows + 1 });
      this.client.send({ t: 'resize', handle: this.handle, cols, rows });
    }
    this.resolveReplayed();
    this.scheduleOutput();
    if (this.pendingExit !== null) await this.end(this.pendingExit);
  }

  private onParsed(data: Buffer): void {
    if (this.pausedHost && this.screen.unparsedLength < LOW_WATERMARK) {
      this.pausedHost = false;
      this.client.send({ t: 'resume', handle: this.handle });
    }
    const live = this.lifecycle !== 'disposed' && this.lifecycle !== 'replaying';
    const text = this.text.decode(data, live && this.dataListeners.size > 0);
    if (!live) return;
    if (text) this.dataListeners.fire(text);
    this.scheduleOutput();
  }

  /** The host reports exit after the PTY stream closed. */
  private async end(exit: HostExit, lost = false): Promise<void> {
    if (!this.attached) return;
    if (exit.reason !== null) this.reason = exit.reason;
    await this.finishExit({ exitCode: exit.exitCode, signal: exit.signal, ...(lost ? { lost: true } : {}) });
    // A host lost in the middle of a replay ends the replay too: what was parsed is all there is.
    this.resolveReplayed();
  }
}
