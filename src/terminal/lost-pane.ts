import { NotePane } from './note-pane.ts';
import type { Disposable } from '../base/disposable.ts';
import type { ExitInfo, TerminalPane } from './types.ts';

/**
 * A pane whose PTY is gone with the process that held it (the pty host was killed, the machine
 * rebooted): no process, a screen that says so, and an exit marked lost. Listed until respawned or killed.
 */
class LostPane extends NotePane {
  readonly exited: ExitInfo = { exitCode: null, signal: null, lost: true };
  readonly terminationReason = 'lost: the process holding its PTY went away';

  write(): void {}

  resize(cols: number, rows: number): void {
    this.screen.resize(cols, rows);
  }

  onExit(): Disposable {
    return { dispose: () => undefined };
  }

  terminate(): Promise<ExitInfo> {
    return Promise.resolve(this.exited);
  }
}

export function lostTerminalPane(options: { pid: number; cols: number; rows: number; note: string }): TerminalPane {
  return new LostPane(options.pid, options);
}
