import { closeSync, constants, openSync } from 'node:fs';
import { spawn, type IPty } from 'node-pty';
import type { Disposable, ExitInfo, PaneSpawnOptions } from './types.ts';

/**
 * The one adapter around node-pty: a child on a new PTY, as the leader of its own session and
 * process group (so its pid is also its pgid and session id).
 */
export class PtyProcess implements Disposable {
  readonly pid: number;
  private readonly pty: IPty;
  private paused = false;
  private slaveFd: number | null = null;

  constructor(options: PaneSpawnOptions) {
    // The environment given is laid over the daemon's own, so PATH and HOME come through.
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...options.env };
    this.pty = spawn(options.command, options.args, {
      name: env.TERM ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env,
      encoding: 'utf8',
    });
    this.pid = this.pty.pid;
    this.slaveFd = holdSlaveOpen(this.pty);
    this.pty.onExit(() => this.releaseSlave());
  }

  get isPaused(): boolean {
    return this.paused;
  }

  onData(listener: (data: string) => void): Disposable {
    return this.pty.onData(listener);
  }

  /** Fires once the child has exited and node-pty has seen the PTY stream close. */
  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.pty.onExit(({ exitCode, signal }) =>
      listener({ exitCode: signal ? null : exitCode, signal: signal ? signal : null }),
    );
  }

  write(data: string): void {
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }

  /** Stops reading the PTY: the child blocks on its next write once the kernel buffer fills. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.pty.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.pty.resume();
  }

  dispose(): void {
    try {
      this.pty.kill('SIGKILL');
    } catch {
      // already gone
    }
    this.releaseSlave();
  }

  private releaseSlave(): void {
    if (this.slaveFd === null) return;
    closeSync(this.slaveFd);
    this.slaveFd = null;
  }
}

/**
 * Opens the PTY's slave side in this process and keeps it open until node-pty reports exit.
 * Why: when the child's last slave descriptor closes, Linux may fail reads on the master with
 * EIO while output still sits in the tty buffers, and node-pty then ends the stream; the tail
 * of a fast-exiting program is lost (`seq 1 5000; exit 3` lost 242 bytes in 1 run of 3 here,
 * kernel 6.18, node-pty 1.1.0). With our descriptor open the master never sees EIO; node-pty
 * instead destroys the stream 200 ms after the child exits (DESTROY_SOCKET_TIMEOUT_MS), which
 * is time enough to read what is buffered. Returns null when the slave cannot be opened.
 */
function holdSlaveOpen(pty: IPty): number | null {
  const slavePath = (pty as unknown as { _pty?: unknown })._pty;
  if (typeof slavePath !== 'string' || !slavePath.startsWith('/dev/')) return null;
  try {
    return openSync(slavePath, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
}
