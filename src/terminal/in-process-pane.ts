import type { ExitInfo, PaneSpawnOptions, TerminalPane } from './types.ts';
import { PtyProcess } from './pty-process.ts';
import { OutputPump } from './output-pump.ts';
import { OutputText } from './output-text.ts';
import { ScreenPane } from './screen-pane.ts';
import { KILL_GRACE_MS, signalSession } from './terminate-policy.ts';
import { TerminalError } from './errors.ts';

/** A pane whose PTY child this process owns, its output parsed into a headless screen. */
class InProcessPane extends ScreenPane {
  private killTimer: NodeJS.Timeout | null = null;
  private readonly pty: PtyProcess;
  private readonly pump: OutputPump;
  private readonly text = new OutputText();

  constructor(options: PaneSpawnOptions) {
    let pty: PtyProcess;
    try {
      pty = new PtyProcess(options);
    } catch (error) {
      throw new TerminalError('spawn_failed', `cannot start ${options.command}: ${(error as Error).message}`);
    }
    super(pty.pid, options, 'running');
    this.pty = pty;
    this.pump = new OutputPump(this.pty, this.screen, (data) => {
      const text = this.text.decode(data, this.dataListeners.size > 0);
      if (text) this.dataListeners.fire(text);
      this.scheduleOutput();
    });
    this.pty.onExit((info) => void this.exit(info));
  }

  write(data: string): void {
    if (this.lifecycle !== 'running') return; // nothing reads a closed PTY
    this.pty.write(data);
  }

  protected answer(data: string): void {
    this.write(data);
  }

  protected resizePty(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }

  get pendingInput(): number {
    return this.lifecycle === 'running' ? this.pty.pendingInput : 0;
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
    return this.whenExited;
  }

  dispose(): void {
    if (this.lifecycle === 'disposed') return;
    if (this.lifecycle === 'running' || this.lifecycle === 'exiting') {
      this.reason ??= 'disposed while running: SIGKILL sent to the session';
      signalSession(this.pid, 'SIGKILL');
      this.pty.dispose();
    }
    if (this.killTimer !== null) clearTimeout(this.killTimer);
    this.pump.dispose();
    this.release();
  }

  /** node-pty reports exit after the PTY stream closed. */
  private async exit(info: ExitInfo): Promise<void> {
    if (this.lifecycle !== 'running') return;
    if (this.killTimer !== null) clearTimeout(this.killTimer);
    this.killTimer = null;
    await this.finishExit(info, () => this.pump.dispose());
  }
}

/** Starts `options.command` on a new PTY and renders it into a headless emulator. */
export function spawnTerminalPane(options: PaneSpawnOptions): TerminalPane {
  return new InProcessPane(options);
}
