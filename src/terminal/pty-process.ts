import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { spawn, type IPty } from 'node-pty';
import { sealDescriptors, setUtf8Input } from './native.ts';
import type { Disposable } from '../base/disposable.ts';
import type { ExitInfo, PaneSpawnOptions } from './types.ts';

/**
 * The one adapter around node-pty: a child on a new PTY, as the leader of its own session and
 * process group (so its pid is also its pgid and session id).
 */
export class PtyProcess implements Disposable {
  readonly pid: number;
  private readonly pty: IPty;
  private paused = false;
  /** Set from the child's exit until the stream ends: reading is no longer paused. */
  private draining = false;
  private slaveFd: number | null = null;
  private exitedAlready = false;

  constructor(options: PaneSpawnOptions) {
    // The environment given is the whole of it: the daemon builds it (daemon/panes/pane-env.ts), and the
    // pty host's own (the daemon's at the host's start) never leaks into a pane.
    const env: Record<string, string> = { ...options.env };
    // The child starts stopped behind a tiny gate (see holdSlaveOpen) and then execs the command,
    // keeping its pid, so pid, pgid and session id are the command's own.
    sealDescriptors();
    this.pty = spawn('/bin/sh', ['-c', START_GATE, options.command, ...options.args], {
      name: env.TERM ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env,
      // Output comes as the bytes read: the emulator decodes UTF-8 itself (a character split
      // between two reads included), and the pty host forwards and keeps bytes without a
      // decode and an encode per read.
      encoding: null,
    });
    // The new master comes back inheritable: seal it before anything else can fork.
    sealDescriptors();
    this.pid = this.pty.pid;
    // node-pty sets IUTF8 only for its 'utf8' encoding; the child is still stopped at the gate.
    setUtf8Input((this.pty as unknown as { _fd: number })._fd);
    this.slaveFd = holdSlaveOpen(this.pty);
    this.drainAfterExit();
    this.pty.onExit(() => {
      this.exitedAlready = true;
      this.releaseSlave();
    });
    this.openGate(Date.now());
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Output as read from the PTY: a UTF-8 character may be split between two chunks. */
  onData(listener: (data: Buffer) => void): Disposable {
    return (this.pty as unknown as { onData(listener: (data: Buffer) => void): Disposable }).onData(listener);
  }

  /** Fires once the child has exited and node-pty has seen the PTY stream close. */
  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.pty.onExit(({ exitCode, signal }) =>
      listener({ exitCode: signal ? null : exitCode, signal: signal ? signal : null }),
    );
  }

  write(data: string | Buffer): void {
    this.pty.write(data);
  }

  /** Bytes written that the kernel has not taken yet: node-pty queues them in its write stream. */
  get pendingInput(): number {
    let total = 0;
    for (const task of this.writeQueue()) total += task.buffer.length - task.offset;
    return total;
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }

  /** Stops reading the PTY: the child blocks on its next write once the kernel buffer fills. */
  pause(): void {
    if (this.paused || this.draining) return;
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
    // Input the program never read is dropped with it, not kept for as long as the pane record lives.
    this.writeQueue().length = 0;
    this.releaseSlave();
  }

  private writeQueue(): Array<{ buffer: Buffer; offset: number }> {
    const stream = (this.pty as unknown as { _writeStream?: { _writeQueue?: Array<{ buffer: Buffer; offset: number }> } })._writeStream;
    return stream?._writeQueue ?? [];
  }

  /**
   * node-pty learns of the child's exit on its own waitpid thread, marks it on the instance
   * (`_boundClose`, lib/unixTerminal.js) and destroys the read stream 200 ms later
   * (DESTROY_SOCKET_TIMEOUT_MS) unless the stream has ended; with our slave descriptor open it
   * never ends by itself, and a destroy drops whatever is still unread. So the drain starts at
   * that mark: reading resumes whatever the flow control said (a dead child writes no more, so
   * what is left is the kernel's buffer), and once the master has been quiet for
   * DRAIN_QUIET_CHECKS checks, each a timer and then an immediate so that at least one poll of the
   * descriptor lies between them, our slave descriptor closes and the stream ends by itself: the
   * exit is told as soon as the output is read, not 200 ms later. Closing the slave at once lost
   * the tail under load: the master read end-of-file while up to 8 KB were still buffered (load
   * 30 on 2 cores, kernel 6.18, 5 runs in 6). node-pty's own destroy is held off while the drain
   * runs (if the mark was missed, that destroy starts the drain instead); the stream is destroyed
   * for real EXIT_DRAIN_TIMEOUT_MS after the drain began, for when a background process still
   * holds the terminal.
   */
  private drainAfterExit(): void {
    const pty = this.pty as unknown as { _boundClose?: boolean; _socket?: NodeJS.ReadableStream & { destroy(): unknown } };
    const socket = pty._socket;
    if (socket === undefined || typeof socket.destroy !== 'function' || this.slaveFd === null) return;
    const destroy = socket.destroy.bind(socket);
    let chunksRead = 0;
    this.pty.onData(() => chunksRead++);
    let timer: NodeJS.Timeout | null = null;
    socket.once('close', () => {
      if (timer !== null) clearTimeout(timer);
    });
    const drain = () => {
      if (this.draining) return;
      this.draining = true;
      if (this.paused) {
        this.paused = false;
        this.pty.resume();
      }
      const startedAt = Date.now();
      let seen = chunksRead;
      let quietChecks = 0;
      const check = () =>
        setImmediate(() => {
          quietChecks = chunksRead === seen ? quietChecks + 1 : 0;
          seen = chunksRead;
          if (quietChecks >= DRAIN_QUIET_CHECKS) {
            // Drained: the stream now ends by itself, unless a background process holds the terminal.
            this.releaseSlave();
            timer = setTimeout(destroy, EXIT_DRAIN_TIMEOUT_MS);
          } else if (Date.now() - startedAt > EXIT_DRAIN_TIMEOUT_MS) {
            this.releaseSlave();
            destroy();
          } else {
            timer = setTimeout(check, DRAIN_CHECK_MS);
          }
        });
      timer = setTimeout(check, DRAIN_CHECK_MS);
    };
    socket.destroy = () => {
      if (this.slaveFd === null) return destroy();
      drain();
      return socket;
    };
    let exitMarked = pty._boundClose ?? false;
    Object.defineProperty(pty, '_boundClose', {
      configurable: true,
      enumerable: true,
      get: () => exitMarked,
      set: (value: boolean) => {
        exitMarked = value;
        if (value) drain();
      },
    });
  }

  /** Continues the child once it has stopped itself at the gate (it may not have got there yet). */
  private openGate(startedAt: number): void {
    if (this.exitedAlready) return;
    const state = readState(this.pid);
    if (state === null) return; // gone
    if (state === 'T' || Date.now() - startedAt > START_GATE_TIMEOUT_MS) {
      try {
        process.kill(this.pid, 'SIGCONT');
      } catch {
        // exited meanwhile
      }
      return;
    }
    setTimeout(() => this.openGate(startedAt), 1);
  }

  private releaseSlave(): void {
    if (this.slaveFd === null) return;
    closeSync(this.slaveFd);
    this.slaveFd = null;
  }
}

/**
 * The child's first program: stop itself, and once continued, exec the real command. It gives
 * the parent time to open the slave side before the command can run (and exit).
 */
const START_GATE = 'kill -STOP $$ && exec "$0" "$@"';
/** After the child exited, how long buffered output may take to drain before the stream is cut. */
export const EXIT_DRAIN_TIMEOUT_MS = 1000;
/** While draining after exit, the pause between two looks for more output. */
export const DRAIN_CHECK_MS = 10;
/** Consecutive looks that found no new output before the stream may end. */
export const DRAIN_QUIET_CHECKS = 3;
/** If the gate is never seen stopped (it should be within milliseconds), continue anyway. */
export const START_GATE_TIMEOUT_MS = 2000;

function readState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

/**
 * Opens the PTY's slave side in this process and keeps it open until node-pty reports exit.
 * Why: when the child's last slave descriptor closes, Linux may fail reads on the master with
 * EIO while output still sits in the tty buffers, and node-pty then ends the stream; the tail
 * of a fast-exiting program is lost (`seq 1 5000; exit 3` lost 242 bytes in 1 run of 3 here,
 * kernel 6.18, node-pty 1.1.0). The slave must be open before the command can exit, hence the
 * start gate: without it a loaded machine lost the tail in most runs. With our descriptor open the
 * master never sees EIO; the stream is drained from the child's exit and then ended by closing it
 * (drainAfterExit). Returns null when the slave cannot be opened.
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
