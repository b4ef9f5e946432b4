import { NotePane } from './note-pane.ts';
import { CorralError } from '../protocol/errors.ts';
import type { Disposable } from '../base/disposable.ts';
import type { ExitInfo, TerminalPane } from './types.ts';

/**
 * The terminal of an external pane: an agent started outside Corral that only its hooks describe.
 * No process, no output, a screen that says so, and no input: writing is refused (`pane_external`).
 * `terminate()` ends it (its session ended, its reported agent identity expired, or it was killed).
 */
class ScreenlessPane extends NotePane {
  readonly terminationReason = null;
  private exitInfo: ExitInfo | null = null;
  private readonly exitListeners = new Set<(info: ExitInfo) => void>();

  get exited(): ExitInfo | null {
    return this.exitInfo;
  }

  write(): never {
    return refuse();
  }

  resize(): never {
    return refuse();
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    this.exitListeners.add(listener);
    return { dispose: () => this.exitListeners.delete(listener) };
  }

  terminate(): Promise<ExitInfo> {
    if (this.exitInfo === null) {
      const exited: ExitInfo = { exitCode: 0, signal: null };
      this.exitInfo = exited;
      for (const listener of [...this.exitListeners]) listener(exited);
    }
    return Promise.resolve(this.exitInfo);
  }

  override dispose(): void {
    this.exitListeners.clear();
    super.dispose();
  }
}

function refuse(): never {
  throw new CorralError('pane_external', 'this pane is an agent started outside Corral, known from its hooks only: it has no terminal to write to');
}

export function screenlessTerminalPane(options: { note: string; cols: number; rows: number }): TerminalPane {
  return new ScreenlessPane(0, options);
}
