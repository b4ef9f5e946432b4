// A private tmux server (its own socket, no user config), the baseline of several benchmarks.
import { execFileSync } from 'node:child_process';

export class Tmux {
  readonly socket = `corral-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private started = false;

  static available(): boolean {
    try {
      execFileSync('tmux', ['-V'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  run(...words: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  }

  /** Starts the server with one window running `command`, at 120x32, with the given history limit. */
  start(command: string, historyLimit = 2000): void {
    this.run('new-session', '-d', '-x', '120', '-y', '32', command);
    this.run('set-option', '-g', 'history-limit', String(historyLimit));
    this.started = true;
  }

  window(command: string): void {
    this.run('new-window', '-d', command);
  }

  get pid(): number {
    return Number(this.run('display-message', '-p', '#{pid}').trim());
  }

  kill(): void {
    if (!this.started) return;
    this.started = false;
    try {
      this.run('kill-server');
    } catch {
      // already gone
    }
  }
}
