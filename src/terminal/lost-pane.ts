import { Screen } from './screen.ts';
import type { Disposable } from '../base/disposable.ts';
import type { ExitInfo, TerminalPane } from './types.ts';

const NONE: Disposable = { dispose: () => undefined };

/**
 * A pane whose PTY is gone with the process that held it (the pty host was killed, the machine
 * rebooted): no process, a screen that says so, and an exit marked lost. Listed until respawned or killed.
 */
export function lostTerminalPane(options: { pid: number; cols: number; rows: number; note: string }): TerminalPane {
  const screen = new Screen({ cols: options.cols, rows: options.rows });
  screen.write(options.note.replace(/\n/g, '\r\n'));
  const exited: ExitInfo = { exitCode: null, signal: null, lost: true };
  return {
    pid: options.pid,
    get cols() {
      return screen.cols;
    },
    get rows() {
      return screen.rows;
    },
    exited,
    write: () => undefined,
    resize: (cols, rows) => screen.resize(cols, rows),
    snapshot: () => screen.snapshot(),
    read: (read) => screen.read(read),
    scrollbackLength: () => screen.scrollbackLength(),
    pendingInput: 0,
    get osc() {
      return screen.osc;
    },
    bracketedPaste: false,
    modes: { applicationCursorKeys: false, alternateScreen: false },
    foreground: () => null,
    onOutput: () => NONE,
    onData: () => NONE,
    onOsc: () => NONE,
    onEmulatorLog: () => NONE,
    onExit: () => NONE,
    terminate: () => Promise.resolve(exited),
    onForegroundChange: () => NONE,
    resetProgramState: () => undefined,
    terminationReason: 'lost: the process holding its PTY went away',
    dispose: () => screen.dispose(),
  };
}
