import type { ScreenSnapshot } from '../snapshot.ts';
import type { Disposable } from '../../base/disposable.ts';
import type {
  EmulatorLogEntry,
  ExitInfo,
  ForegroundProcess,
  OscEvent,
  OscState,
  ReadSource,
  TerminalModes,
  TerminalPane,
} from '../types.ts';
import { Screen } from '../screen.ts';
import { ForegroundTracker } from '../foreground-tracker.ts';
import { HIGH_WATERMARK, LOW_WATERMARK } from '../output-pump.ts';
import { TerminalError } from '../errors.ts';
import { Emitter } from '../../base/emitter.ts';
import { OutputText } from '../output-text.ts';
import type { HostClient, HostPaneSink } from './host-client.ts';
import type { HostExit, HostPaneInfo } from './wire.ts';

type Lifecycle = 'replaying' | 'running' | 'exiting' | 'exited' | 'disposed';

/** Why a pane whose host went away counts as lost rather than exited. */
export const HOST_LOST_REASON = 'the pty host went away: the pane is lost';

/**
 * A pane whose PTY lives in the pty host: output arrives over the host's socket and is parsed into
 * a headless screen here. A recovered pane first replays the host's ring into a fresh screen with
 * no listener told and no answer sent back, then nudges the size so full-screen programs redraw.
 */
export class RemotePane implements TerminalPane, HostPaneSink {
  readonly pid: number;
  readonly handle: number;
  /** Bytes the host dropped from the ring before this daemon attached. */
  readonly dropped: number;
  readonly recovered: boolean;
  private lifecycle: Lifecycle;
  private exitInfo: ExitInfo | null = null;
  private reason: string | null = null;
  private pausedHost = false;
  private outputScheduled = false;
  private readonly screen: Screen;
  private readonly tracker: ForegroundTracker;
  private readonly outputListeners = new Emitter<void>();
  private readonly dataListeners = new Emitter<string>();
  private readonly text = new OutputText();
  private readonly oscListeners = new Emitter<OscEvent>();
  private readonly exitListeners = new Emitter<ExitInfo>();
  private readonly replayed$: Promise<void>;
  private resolveReplayed!: () => void;
  private readonly exited$: Promise<ExitInfo>;
  private resolveExited!: (info: ExitInfo) => void;
  private readonly adoption: Disposable;
  private readonly oscSubscription: Disposable;
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
    this.pid = info.pid;
    this.handle = info.handle;
    this.dropped = info.dropped;
    this.recovered = options.recovered;
    this.inputSent = this.inputReceived = info.inputReceived;
    this.lifecycle = options.recovered ? 'replaying' : 'running';
    this.exited$ = new Promise((resolve) => (this.resolveExited = resolve));
    this.replayed$ = new Promise((resolve) => (this.resolveReplayed = resolve));
    if (!options.recovered) this.resolveReplayed();
    // Answers to terminal queries go back to the program, except for queries replayed from the ring.
    this.screen = new Screen({ cols: info.cols, rows: info.rows, reply: (data) => this.lifecycle === 'running' && this.sendInput(data) });
    this.oscSubscription = this.screen.onOsc((event) => this.lifecycle !== 'replaying' && this.oscListeners.fire(event));
    this.tracker = new ForegroundTracker(this.pid);
    this.adoption = client.adopt(this.handle, this);
    if (info.exit !== null && !options.recovered) void this.exit(info.exit);
    else if (info.exit !== null) this.pendingExit = info.exit;
  }

  /** Resolves once a recovered pane's ring is parsed and its size nudged. */
  get replayed(): Promise<void> {
    return this.replayed$;
  }

  get cols(): number {
    return this.screen.cols;
  }

  get rows(): number {
    return this.screen.rows;
  }

  get exited(): ExitInfo | null {
    return this.exitInfo;
  }

  get osc(): OscState {
    return this.screen.osc;
  }

  get bracketedPaste(): boolean {
    return this.screen.bracketedPaste;
  }

  get modes(): TerminalModes {
    return this.screen.modes;
  }

  get terminationReason(): string | null {
    return this.reason;
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
    void this.finishExit(exit);
  }

  input(received: number, pending: number): void {
    this.inputReceived = received;
    this.inputUnread = pending;
  }

  lost(): void {
    if (this.lifecycle === 'exited' || this.lifecycle === 'disposed' || this.lifecycle === 'exiting') return;
    this.reason = HOST_LOST_REASON;
    void this.finishExit({ exitCode: null, signal: null, reason: HOST_LOST_REASON }, true);
  }

  // --- the daemon's side (TerminalPane) ---

  write(data: string): void {
    if (this.lifecycle === 'running' || this.lifecycle === 'replaying') this.sendInput(data);
  }

  private sendInput(data: string): void {
    this.inputSent += Buffer.byteLength(data, 'utf8');
    this.client.input(this.handle, data);
  }

  resize(cols: number, rows: number): void {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 2 || rows < 1 || cols > 1000 || rows > 500) {
      throw new TerminalError('invalid_size', `size ${cols}x${rows} is out of range: use 2-1000 columns and 1-500 rows`);
    }
    if (this.lifecycle === 'disposed') return;
    if (this.lifecycle === 'running' || this.lifecycle === 'replaying') this.client.send({ t: 'resize', handle: this.handle, cols, rows });
    this.screen.resize(cols, rows);
  }

  snapshot(): ScreenSnapshot {
    return this.screen.snapshot();
  }

  read(options: { source: ReadSource; lines?: number; offset?: number; ansi?: boolean }): string {
    return this.screen.read(options);
  }

  scrollbackLength(): number {
    return this.screen.scrollbackLength();
  }

  /** Input the program has not read: what waits in the pty host plus what is on its way there. */
  get pendingInput(): number {
    if (this.lifecycle !== 'running' && this.lifecycle !== 'replaying') return 0;
    return this.inputUnread + (this.inputSent - this.inputReceived);
  }

  foreground(): ForegroundProcess | null {
    return this.lifecycle === 'running' || this.lifecycle === 'replaying' ? this.tracker.get() : null;
  }

  resetProgramState(): void {
    this.screen.resetProgramState();
  }

  onOutput(listener: () => void): Disposable {
    return this.outputListeners.event(listener);
  }

  onData(listener: (data: string) => void): Disposable {
    return this.dataListeners.event(listener);
  }

  onEmulatorLog(listener: (entry: EmulatorLogEntry) => void): Disposable {
    return this.screen.onEmulatorLog(listener);
  }

  onOsc(listener: (event: OscEvent) => void): Disposable {
    return this.oscListeners.event(listener);
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.exitListeners.event(listener);
  }

  onForegroundChange(listener: (foreground: ForegroundProcess | null) => void): Disposable {
    return this.tracker.onChange(listener);
  }

  /** The host runs the one policy (SIGHUP, SIGKILL after KILL_GRACE_MS), even if this daemon stops meanwhile. */
  terminate(): Promise<ExitInfo> {
    if ((this.lifecycle === 'running' || this.lifecycle === 'replaying') && this.reason === null) {
      this.reason = 'terminate requested: SIGHUP sent to the session';
      this.client.send({ t: 'terminate', handle: this.handle });
    }
    return this.exited$;
  }

  dispose(): void {
    if (this.lifecycle === 'disposed') return;
    if (this.lifecycle === 'running' || this.lifecycle === 'replaying' || this.lifecycle === 'exiting') {
      this.reason ??= 'disposed while running: SIGKILL sent to the session';
      this.client.send({ t: 'kill', handle: this.handle });
    }
    this.client.send({ t: 'forget', handle: this.handle });
    const wasExited = this.lifecycle === 'exited';
    this.lifecycle = 'disposed';
    if (!wasExited) this.resolveExited({ exitCode: null, signal: null });
    this.resolveReplayed();
    this.adoption.dispose();
    this.oscSubscription.dispose();
    this.tracker.dispose();
    this.screen.dispose();
    this.outputListeners.dispose();
    this.dataListeners.dispose();
    this.oscListeners.dispose();
    this.exitListeners.dispose();
  }

  /** Leaves the PTY running in the host (the daemon stops, the agent does not). */
  detach(): void {
    if (this.lifecycle === 'disposed') return;
    this.lifecycle = 'disposed';
    this.resolveExited({ exitCode: null, signal: null });
    this.resolveReplayed();
    this.adoption.dispose();
    this.oscSubscription.dispose();
    this.tracker.dispose();
    this.screen.dispose();
    this.outputListeners.dispose();
    this.dataListeners.dispose();
    this.oscListeners.dispose();
    this.exitListeners.dispose();
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
    if (this.pendingExit !== null) await this.finishExit(this.pendingExit);
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

  /** Coalesces parse callbacks into one onOutput per turn of the event loop. */
  private scheduleOutput(): void {
    if (this.outputScheduled) return;
    this.outputScheduled = true;
    setImmediate(() => this.flushOutput());
  }

  private flushOutput(): void {
    if (!this.outputScheduled) return;
    this.outputScheduled = false;
    if (this.lifecycle === 'disposed' || this.lifecycle === 'replaying') return;
    if (this.lifecycle === 'running') this.tracker.noteOutput();
    this.outputListeners.fire();
  }

  /** The host reports exit after the PTY stream closed; wait for the emulator to parse the tail. */
  private async finishExit(exit: HostExit, lost = false): Promise<void> {
    if (this.lifecycle !== 'running' && this.lifecycle !== 'replaying') return;
    this.lifecycle = 'exiting';
    if (exit.reason !== null) this.reason = exit.reason;
    await this.screen.flush();
    if (this.lifecycle !== 'exiting') return; // disposed meanwhile
    this.flushOutput();
    this.tracker.stop();
    this.screen.capture.dropTransientStatus();
    this.lifecycle = 'exited';
    const info: ExitInfo = { exitCode: exit.exitCode, signal: exit.signal, ...(lost ? { lost: true } : {}) };
    this.exitInfo = info;
    this.exitListeners.fire(info);
    this.resolveExited(info);
  }
}
