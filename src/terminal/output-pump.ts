import type { Disposable } from '../base/disposable.ts';
import type { PtyProcess } from './pty-process.ts';
import type { Screen } from './screen.ts';
import { isAlive } from './procfs.ts';

/** Unparsed output (bytes) above which the PTY is paused; the emulator throws past 50 MB. */
export const HIGH_WATERMARK = 2 * 1024 * 1024;
/** Unparsed output below which a paused PTY is resumed. */
export const LOW_WATERMARK = 256 * 1024;
/**
 * While paused, how often to check whether the child has exited. node-pty destroys the PTY
 * socket 200 ms after the child exits if the stream has not closed by then (DESTROY_SOCKET_
 * TIMEOUT_MS in node-pty 1.1.0 lib/unixTerminal.js), which would drop output still in the
 * kernel buffer; so once the child is gone we read to the end regardless of the watermark.
 */
export const PAUSED_EXIT_CHECK_MS = 50;

/**
 * Moves PTY output into the screen with back-pressure: pause above the high watermark of
 * unparsed output, resume below the low one. `parsed` runs with each chunk once it is parsed.
 */
export interface Watermarks {
  high: number;
  low: number;
}

export class OutputPump implements Disposable {
  /** How many times output was paused; for tests and diagnostics. */
  pauses = 0;
  private readonly subscription: Disposable;
  private exitCheck: NodeJS.Timeout | null = null;
  private draining = false;

  constructor(
    private readonly pty: PtyProcess,
    private readonly screen: Screen,
    private readonly parsed: (data: Buffer) => void,
    private readonly watermarks: Watermarks = { high: HIGH_WATERMARK, low: LOW_WATERMARK },
  ) {
    this.subscription = pty.onData((data) => this.onData(data));
  }

  dispose(): void {
    this.subscription.dispose();
    this.stopExitCheck();
  }

  private onData(data: Buffer): void {
    this.screen.write(data, () => this.onParsed(data));
    if (!this.draining && this.screen.unparsedLength > this.watermarks.high && !this.pty.isPaused) {
      this.pauses += 1;
      this.pty.pause();
      this.exitCheck = setInterval(() => this.checkExited(), PAUSED_EXIT_CHECK_MS);
    }
  }

  private onParsed(data: Buffer): void {
    if (this.pty.isPaused && this.screen.unparsedLength < this.watermarks.low) this.resume();
    this.parsed(data);
  }

  private checkExited(): void {
    if (isAlive(this.pty.pid)) return;
    this.draining = true; // at most a kernel buffer's worth is left: read it all
    this.resume();
  }

  private resume(): void {
    this.stopExitCheck();
    this.pty.resume();
  }

  private stopExitCheck(): void {
    if (this.exitCheck !== null) clearInterval(this.exitCheck);
    this.exitCheck = null;
  }
}
