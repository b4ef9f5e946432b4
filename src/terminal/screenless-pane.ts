import { Screen } from './screen.ts';
import { CorralError } from '../protocol/errors.ts';
import type { Disposable } from '../base/disposable.ts';
import type { ExitInfo, TerminalPane } from './types.ts';

const NONE: Disposable = { dispose: () => undefined };

/**
 * The terminal of an external pane: an agent started outside Corral that only its hooks describe.
 * No process, no output, a screen that says so, and no input: writing is refused (`pane_external`).
 * `terminate()` ends it (its session ended, its identity expired, or it was killed).
 */
export function screenlessTerminalPane(options: { note: string; cols: number; rows: number }): TerminalPane {
  const screen = new Screen({ cols: options.cols, rows: options.rows });
  screen.write(options.note.replace(/\n/g, '\r\n'));
  let exited: ExitInfo | null = null;
  const exitListeners = new Set<(info: ExitInfo) => void>();
  const refuse = (): never => {
    throw new CorralError('pane_external', 'this pane is an agent started outside Corral, known from its hooks only: it has no terminal to write to');
  };
  return {
    pid: 0,
    get cols() {
      return screen.cols;
    },
    get rows() {
      return screen.rows;
    },
    get exited() {
      return exited;
    },
    write: refuse,
    resize: refuse,
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
    onExit: (listener) => {
      exitListeners.add(listener);
      return { dispose: () => exitListeners.delete(listener) };
    },
    terminate: () => {
      if (exited === null) {
        exited = { exitCode: 0, signal: null };
        for (const listener of [...exitListeners]) listener(exited);
      }
      return Promise.resolve(exited);
    },
    onForegroundChange: () => NONE,
    resetProgramState: () => undefined,
    terminationReason: null,
    dispose: () => {
      exitListeners.clear();
      screen.dispose();
    },
  };
}
