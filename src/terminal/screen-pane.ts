import type { Disposable } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import { isPaneSize, PANE_SIZE } from '../protocol/pane-size.ts';
import type { ScreenSnapshot } from './snapshot.ts';
import type { EmulatorLogEntry, ExitInfo, ForegroundProcess, OscEvent, OscState, ReadSource, TerminalModes, TerminalPane } from './types.ts';
import { Screen } from './screen.ts';
import { ForegroundTracker } from './foreground-tracker.ts';
import { TerminalError } from './errors.ts';

/** `replaying`: a recovered pane parses the host's ring into its screen, telling no listener. */
export type ScreenPaneLifecycle = 'replaying' | 'running' | 'exiting' | 'exited' | 'disposed';

/**
 * A pane whose program's output is parsed into a headless screen in this process: the screen's reads,
 * the foreground tracker, the listeners, one onOutput per turn and the end of an exit. Where the PTY
 * lives, how input reaches it and how its processes are ended is the subclass's (pane.ts, a PTY of
 * this process; host/remote-pane.ts, a PTY in the pty host).
 */
export abstract class ScreenPane implements TerminalPane {
  protected lifecycle: ScreenPaneLifecycle;
  protected reason: string | null = null;
  protected readonly screen: Screen;
  protected readonly tracker: ForegroundTracker;
  protected readonly outputListeners = new Emitter<void>();
  protected readonly dataListeners = new Emitter<string>();
  private readonly oscListeners = new Emitter<OscEvent>();
  private readonly exitListeners = new Emitter<ExitInfo>();
  private readonly oscSubscription: Disposable;
  private exitInfo: ExitInfo | null = null;
  private outputScheduled = false;
  private readonly exited$: Promise<ExitInfo>;
  private resolveExited!: (info: ExitInfo) => void;

  constructor(
    readonly pid: number,
    size: { cols: number; rows: number },
    lifecycle: 'replaying' | 'running',
  ) {
    this.lifecycle = lifecycle;
    this.exited$ = new Promise((resolve) => (this.resolveExited = resolve));
    // Answers to terminal queries go back to the program, as a real terminal's would.
    this.screen = new Screen({ cols: size.cols, rows: size.rows, reply: (data) => this.answer(data) });
    this.oscSubscription = this.screen.onOsc((event) => this.lifecycle !== 'replaying' && this.oscListeners.fire(event));
    this.tracker = new ForegroundTracker(pid);
  }

  /** Sends the emulator's answer to a terminal query to the program. */
  protected abstract answer(data: string): void;
  /** Resizes the PTY itself (the screen follows in resize()). */
  protected abstract resizePty(cols: number, rows: number): void;
  abstract readonly pendingInput: number;
  abstract write(data: string): void;
  abstract terminate(): Promise<ExitInfo>;
  abstract dispose(): void;

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

  /** Whether the PTY is there to be written, resized and read for its foreground. */
  protected get attached(): boolean {
    return this.lifecycle === 'running' || this.lifecycle === 'replaying';
  }

  /** Resolves once the pane exited, or with no code once it was let go of before that. */
  protected get whenExited(): Promise<ExitInfo> {
    return this.exited$;
  }

  resize(cols: number, rows: number): void {
    if (!isPaneSize(cols, rows)) {
      const { cols: c, rows: r } = PANE_SIZE;
      throw new TerminalError('invalid_size', `size ${cols}x${rows} is out of range: use ${c.min}-${c.max} columns and ${r.min}-${r.max} rows`);
    }
    if (this.lifecycle === 'disposed') return;
    if (this.attached) this.resizePty(cols, rows);
    this.screen.resize(cols, rows);
  }

  snapshot(): ScreenSnapshot {
    return this.screen.snapshot();
  }

  read(options: { source: ReadSource; lines?: number; offset?: number; ansi?: boolean; trim?: boolean }): string {
    return this.screen.read(options);
  }

  scrollbackLength(): number {
    return this.screen.scrollbackLength();
  }

  foreground(): ForegroundProcess | null {
    return this.attached ? this.tracker.get() : null;
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

  onOsc(listener: (event: OscEvent) => void): Disposable {
    return this.oscListeners.event(listener);
  }

  onEmulatorLog(listener: (entry: EmulatorLogEntry) => void): Disposable {
    return this.screen.onEmulatorLog(listener);
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.exitListeners.event(listener);
  }

  onForegroundChange(listener: (foreground: ForegroundProcess | null) => void): Disposable {
    return this.tracker.onChange(listener);
  }

  /** Coalesces parse callbacks into one onOutput per turn of the event loop. */
  protected scheduleOutput(): void {
    if (this.outputScheduled) return;
    this.outputScheduled = true;
    setImmediate(() => this.flushOutput());
  }

  protected flushOutput(): void {
    if (!this.outputScheduled) return;
    this.outputScheduled = false;
    if (this.lifecycle === 'disposed' || this.lifecycle === 'replaying') return;
    if (this.lifecycle === 'running') this.tracker.noteOutput();
    this.outputListeners.fire();
  }

  /**
   * The PTY stream closed: waits for the emulator to parse the tail, then tells the exit once.
   * `afterParsed` runs once the tail is parsed, before the exit is told.
   */
  protected async finishExit(info: ExitInfo, afterParsed?: () => void): Promise<void> {
    this.lifecycle = 'exiting';
    await this.screen.flush();
    if (this.lifecycle !== 'exiting') return; // disposed meanwhile
    this.flushOutput();
    afterParsed?.();
    this.tracker.stop();
    this.screen.capture.dropTransientStatus();
    this.lifecycle = 'exited';
    this.exitInfo = info;
    this.exitListeners.fire(info);
    this.resolveExited(info);
  }

  /** Lets go of the screen, the tracker and every listener; a pending terminate() resolves with no code. */
  protected release(): void {
    const wasExited = this.lifecycle === 'exited';
    this.lifecycle = 'disposed';
    if (!wasExited) this.resolveExited({ exitCode: null, signal: null });
    this.oscSubscription.dispose();
    this.tracker.dispose();
    this.screen.dispose();
    this.outputListeners.dispose();
    this.dataListeners.dispose();
    this.oscListeners.dispose();
    this.exitListeners.dispose();
  }
}
