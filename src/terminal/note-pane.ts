import { Screen } from './screen.ts';
import type { ScreenSnapshot } from './snapshot.ts';
import type { Disposable } from '../base/disposable.ts';
import type { ExitInfo, ForegroundProcess, OscState, ReadSource, TerminalModes, TerminalPane } from './types.ts';

const NONE: Disposable = { dispose: () => undefined };

/**
 * A pane with no process behind it, only a screen showing a note: no output, no foreground, no input
 * read. What differs between such panes (their exit, whether writing is refused) is the subclass's.
 */
export abstract class NotePane implements TerminalPane {
  readonly pendingInput = 0;
  readonly bracketedPaste = false;
  readonly modes: TerminalModes = { applicationCursorKeys: false, alternateScreen: false };
  protected readonly screen: Screen;

  constructor(
    readonly pid: number,
    options: { note: string; cols: number; rows: number },
  ) {
    this.screen = new Screen({ cols: options.cols, rows: options.rows });
    this.screen.write(options.note.replace(/\n/g, '\r\n'));
  }

  abstract readonly exited: ExitInfo | null;
  abstract readonly terminationReason: string | null;
  abstract write(data: string): void;
  abstract resize(cols: number, rows: number): void;
  abstract onExit(listener: (info: ExitInfo) => void): Disposable;
  abstract terminate(): Promise<ExitInfo>;

  get cols(): number {
    return this.screen.cols;
  }

  get rows(): number {
    return this.screen.rows;
  }

  get osc(): OscState {
    return this.screen.osc;
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
    return null;
  }

  onOutput(): Disposable {
    return NONE;
  }

  onData(): Disposable {
    return NONE;
  }

  onOsc(): Disposable {
    return NONE;
  }

  onEmulatorLog(): Disposable {
    return NONE;
  }

  onForegroundChange(): Disposable {
    return NONE;
  }

  resetProgramState(): void {}

  dispose(): void {
    this.screen.dispose();
  }
}
