import type { Disposable } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import { isPaneSize, PANE_SIZE } from '../protocol/pane-size.ts';
import type { ScreenSnapshot } from './snapshot.ts';
import type {
  EmulatorLogEntry,
  ExitInfo,
  ForegroundProcess,
  OscEvent,
  OscState,
  PaneSpawnOptions,
  ReadSource,
  TerminalModes,
  TerminalPane,
} from './types.ts';
import { PtyProcess } from './pty-process.ts';
import { Screen } from './screen.ts';
import { OutputPump } from './output-pump.ts';
import { OutputText } from './output-text.ts';
import { ForegroundTracker } from './foreground-tracker.ts';
import { KILL_GRACE_MS, signalSession } from './terminate-policy.ts';
import { TerminalError } from './errors.ts';

type Lifecycle = 'running' | 'exiting' | 'exited' | 'disposed';

/** A live pane: a PTY child whose output is parsed into a headless screen. */
class LivePane implements TerminalPane {
  readonly pid: number;
  private lifecycle: Lifecycle = 'running';
  private exitInfo: ExitInfo | null = null;
  private reason: string | null = null;
  private killTimer: NodeJS.Timeout | null = null;
  private outputScheduled = false;
  private readonly pty: PtyProcess;
  private readonly screen: Screen;
  private readonly pump: OutputPump;
  private readonly tracker: ForegroundTracker;
  private readonly outputListeners = new Emitter<void>();
  private readonly dataListeners = new Emitter<string>();
  private readonly text = new OutputText();
  private readonly exitListeners = new Emitter<ExitInfo>();
  private readonly exited$: Promise<ExitInfo>;
  private resolveExited!: (info: ExitInfo) => void;

  constructor(options: PaneSpawnOptions) {
    this.exited$ = new Promise((resolve) => (this.resolveExited = resolve));
    try {
      this.pty = new PtyProcess(options);
    } catch (error) {
      throw new TerminalError('spawn_failed', `cannot start ${options.command}: ${(error as Error).message}`);
    }
    this.pid = this.pty.pid;
    // Answers to terminal queries go back to the program, as a real terminal's would.
    this.screen = new Screen({ cols: options.cols, rows: options.rows, reply: (data) => this.write(data) });
    this.tracker = new ForegroundTracker(this.pid);
    this.pump = new OutputPump(this.pty, this.screen, (data) => {
      const text = this.text.decode(data, this.dataListeners.size > 0);
      if (text) this.dataListeners.fire(text);
      this.scheduleOutput();
    });
    this.pty.onExit((info) => void this.finishExit(info));
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

  write(data: string): void {
    if (this.lifecycle !== 'running') return; // nothing reads a closed PTY
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!isPaneSize(cols, rows)) {
      const { cols: c, rows: r } = PANE_SIZE;
      throw new TerminalError('invalid_size', `size ${cols}x${rows} is out of range: use ${c.min}-${c.max} columns and ${r.min}-${r.max} rows`);
    }
    if (this.lifecycle === 'disposed') return;
    if (this.lifecycle === 'running') this.pty.resize(cols, rows);
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

  get pendingInput(): number {
    return this.lifecycle === 'running' ? this.pty.pendingInput : 0;
  }

  foreground(): ForegroundProcess | null {
    return this.lifecycle === 'running' ? this.tracker.get() : null;
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
    return this.screen.onOsc(listener);
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

  /** SIGHUP to every process group of the pane's session, SIGKILL after KILL_GRACE_MS. */
  terminate(): Promise<ExitInfo> {
    if (this.lifecycle === 'running' && this.reason === null) {
      this.reason = 'terminate requested: SIGHUP sent to the session';
      signalSession(this.pid, 'SIGHUP');
      this.killTimer = setTimeout(() => {
        this.killTimer = null;
        this.reason = `still running ${KILL_GRACE_MS} ms after SIGHUP: SIGKILL sent to the session`;
        signalSession(this.pid, 'SIGKILL');
      }, KILL_GRACE_MS);
    }
    return this.exited$;
  }

  dispose(): void {
    if (this.lifecycle === 'disposed') return;
    if (this.lifecycle === 'running' || this.lifecycle === 'exiting') {
      this.reason ??= 'disposed while running: SIGKILL sent to the session';
      signalSession(this.pid, 'SIGKILL');
      this.pty.dispose();
    }
    const wasExited = this.lifecycle === 'exited';
    this.lifecycle = 'disposed';
    if (!wasExited) this.resolveExited({ exitCode: null, signal: null }); // pending terminate() calls
    if (this.killTimer !== null) clearTimeout(this.killTimer);
    this.pump.dispose();
    this.tracker.dispose();
    this.screen.dispose();
    this.outputListeners.dispose();
    this.dataListeners.dispose();
    this.exitListeners.dispose();
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
    if (this.lifecycle === 'disposed') return;
    if (this.lifecycle === 'running') this.tracker.noteOutput();
    this.outputListeners.fire();
  }

  /** node-pty reports exit after the PTY stream closed; wait for the emulator to parse the tail. */
  private async finishExit(info: ExitInfo): Promise<void> {
    if (this.lifecycle !== 'running') return;
    this.lifecycle = 'exiting';
    if (this.killTimer !== null) clearTimeout(this.killTimer);
    this.killTimer = null;
    await this.screen.flush();
    if (this.lifecycle !== 'exiting') return; // disposed meanwhile
    this.flushOutput();
    this.pump.dispose();
    this.tracker.stop();
    this.screen.capture.dropTransientStatus();
    this.lifecycle = 'exited';
    this.exitInfo = info;
    this.exitListeners.fire(info);
    this.resolveExited(info);
  }
}

/** Starts `options.command` on a new PTY and renders it into a headless emulator. */
export function spawnTerminalPane(options: PaneSpawnOptions): TerminalPane {
  return new LivePane(options);
}
