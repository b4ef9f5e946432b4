import { PtyProcess } from '../pty-process.ts';
import { KILL_GRACE_MS, signalSession } from '../terminate-policy.ts';
import type { PaneSpawnOptions } from '../types.ts';
import { OutputRing } from './ring.ts';
import type { HostExit, HostPaneInfo } from './wire.ts';
import { isAlive } from '../procfs.ts';

/** While paused, how often to look whether the child exited, so its last output is read at once. */
const PAUSED_EXIT_CHECK_MS = 50;
/** While a pane holds unread input, how often the host tells the daemon how much is left. */
const INPUT_REPORT_MS = 50;

export interface HostPaneEvents {
  output(pane: HostPane, data: Buffer): void;
  exit(pane: HostPane, exit: HostExit): void;
  /** Input received so far and input the program has not read yet, for the daemon's bound. */
  input(pane: HostPane, received: number, pending: number): void;
}

/**
 * One PTY as the host owns it: the child, its ring of recent output and its exit. Reading is
 * paused only when the attached daemon asks (its emulator is behind) or its socket is full;
 * with no daemon attached the ring takes everything and the oldest output is dropped.
 */
export class HostPane {
  readonly startedAt = Date.now();
  readonly ring: OutputRing;
  readonly pid: number;
  exit: HostExit | null = null;
  private readonly pty: PtyProcess;
  private cols: number;
  private rows: number;
  private readonly pausedBy = new Set<'daemon' | 'socket'>();
  private exitCheck: NodeJS.Timeout | null = null;
  private killTimer: NodeJS.Timeout | null = null;
  private reason: string | null = null;
  private inputReceived = 0;
  /** When output was last read: a daemon taking the pane back learns when a turn ended while none ran. */
  private lastOutputAt: number | null = null;
  private inputReport: NodeJS.Timeout | null = null;

  constructor(
    readonly handle: number,
    public meta: unknown,
    options: PaneSpawnOptions,
    ringBytes: number,
    private readonly events: HostPaneEvents,
  ) {
    this.ring = new OutputRing(ringBytes);
    this.cols = options.cols;
    this.rows = options.rows;
    this.pty = new PtyProcess(options);
    this.pid = this.pty.pid;
    this.pty.onData((data) => {
      this.ring.push(data);
      this.lastOutputAt = Date.now();
      this.events.output(this, data);
    });
    this.pty.onExit((info) => {
      this.stopExitCheck();
      if (this.killTimer !== null) clearTimeout(this.killTimer);
      this.exit = { ...info, reason: this.reason };
      this.events.exit(this, this.exit);
    });
  }

  info(): HostPaneInfo {
    return { handle: this.handle, pid: this.pid, meta: this.meta, cols: this.cols, rows: this.rows, startedAt: this.startedAt, dropped: this.ring.dropped, exit: this.exit, inputReceived: this.inputReceived, lastOutputAt: this.lastOutputAt };
  }

  write(data: Buffer): void {
    this.inputReceived += data.length;
    if (this.exit === null) this.pty.write(data);
    this.reportInput();
  }

  /** Tells the daemon what input waits, again every INPUT_REPORT_MS while any does, and once at 0. */
  private reportInput(): void {
    if (this.inputReport !== null) clearTimeout(this.inputReport);
    this.inputReport = null;
    const pending = this.exit === null ? this.pty.pendingInput : 0;
    this.events.input(this, this.inputReceived, pending);
    if (pending > 0) this.inputReport = setTimeout(() => this.reportInput(), INPUT_REPORT_MS);
  }

  resize(cols: number, rows: number): void {
    if (this.exit !== null) return;
    this.cols = cols;
    this.rows = rows;
    this.pty.resize(cols, rows);
  }

  pause(by: 'daemon' | 'socket'): void {
    if (this.exit !== null) return;
    this.pausedBy.add(by);
    this.pty.pause();
    this.exitCheck ??= setInterval(() => {
      if (!isAlive(this.pid)) this.resume('daemon', 'socket'); // read the child's last output to the end
    }, PAUSED_EXIT_CHECK_MS);
  }

  resume(...by: Array<'daemon' | 'socket'>): void {
    for (const who of by) this.pausedBy.delete(who);
    if (this.pausedBy.size > 0 && isAlive(this.pid)) return;
    this.pausedBy.clear();
    this.stopExitCheck();
    this.pty.resume();
  }

  /** The one policy: SIGHUP to every process group of the session, SIGKILL after KILL_GRACE_MS. */
  terminate(): void {
    if (this.exit !== null || this.reason !== null) return;
    this.reason = 'terminate requested: SIGHUP sent to the session';
    signalSession(this.pid, 'SIGHUP');
    this.killTimer = setTimeout(() => {
      this.reason = `still running ${KILL_GRACE_MS} ms after SIGHUP: SIGKILL sent to the session`;
      signalSession(this.pid, 'SIGKILL');
    }, KILL_GRACE_MS);
  }

  kill(): void {
    if (this.exit !== null) return;
    this.reason ??= 'disposed while running: SIGKILL sent to the session';
    signalSession(this.pid, 'SIGKILL');
  }

  dispose(): void {
    this.stopExitCheck();
    if (this.inputReport !== null) clearTimeout(this.inputReport);
    if (this.killTimer !== null) clearTimeout(this.killTimer);
    if (this.exit === null) signalSession(this.pid, 'SIGKILL');
    this.pty.dispose();
  }

  private stopExitCheck(): void {
    if (this.exitCheck !== null) clearInterval(this.exitCheck);
    this.exitCheck = null;
  }
}
