import type { Terminal } from '@xterm/headless';
import type { Disposable } from '../base/disposable.ts';

/** The emulator's own row tracking (@xterm/headless 6.0.0, pinned): what its renderer is told to draw again. */
interface InputHandlerInternals {
  /** Rows, from the top of the screen (baseY), that the last parse wrote, scrolled or erased. */
  _dirtyRowTracker?: { start?: unknown; end?: unknown };
  onRequestReset?: (listener: () => void) => Disposable;
}

interface CoreInternals {
  _core?: { _inputHandler?: InputHandlerInternals };
}

/** A full read at least this often, whatever the emulator said: a change it did not mark lasts no longer. */
export const WHOLE_READ_MS = 1000;

/**
 * Which rows of the screen the emulator changed since the last snapshot took them. A working agent
 * redraws its spinner's row, not the screen (test/fixtures/streams/: a tick is a few dozen bytes on one
 * or two rows), and reading every cell of every row per verdict was most of the daemon's time
 * (bench/RESULTS.md, "Rows read"). The emulator already tracks the rows each parse touches, for its
 * renderer; this reads that after each parse, and takes every row on anything else (a resize, a reset,
 * a buffer switch, an emulator not the shape known) and at least once a second.
 */
export class TouchedRows implements Disposable {
  /** Inclusive; `from > to` when no row was touched. */
  private from = 0;
  private to = Number.MAX_SAFE_INTEGER;
  private wholeAt = -Infinity;
  private readonly handler: InputHandlerInternals | undefined;
  private readonly subscriptions: Disposable[] = [];

  constructor(
    terminal: Terminal,
    private readonly wholeReadMs = WHOLE_READ_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    const handler = (terminal as unknown as CoreInternals)._core?._inputHandler;
    const tracker = handler?._dirtyRowTracker;
    const known = typeof handler?.onRequestReset === 'function' && typeof tracker?.start === 'number';
    this.handler = known ? handler : undefined;
    const all = () => this.all();
    if (known) this.subscriptions.push(handler.onRequestReset!(all));
    // The emulator also asks its renderer for every row when a synchronized update ends (DECRST
    // 2026, which agents wrap each frame in): the rows that frame touched are already in the tracker.
    this.subscriptions.push(terminal.buffer.onBufferChange(all), terminal.onResize(all));
  }

  /** The emulator parsed a piece of output: the rows it touched join those not yet taken. */
  parsed(): void {
    const tracker = this.handler?._dirtyRowTracker;
    const start = tracker?.start;
    const end = tracker?.end;
    if (typeof start !== 'number' || typeof end !== 'number') return this.all();
    this.touch(start, end);
  }

  /** Every row: the screen changed in a way no row range describes. */
  all(): void {
    this.from = 0;
    this.to = Number.MAX_SAFE_INTEGER;
  }

  /**
   * The rows, of `rows`, to read now (inclusive, clamped; `from > to` for none), and none touched
   * after; every row when a full read is due.
   */
  take(rows: number): { from: number; to: number } {
    const now = this.now();
    if (now - this.wholeAt >= this.wholeReadMs) this.all();
    const taken = { from: Math.max(0, this.from), to: Math.min(rows - 1, this.to) };
    if (taken.from === 0 && taken.to === rows - 1) this.wholeAt = now;
    this.from = Number.MAX_SAFE_INTEGER;
    this.to = -1;
    return taken;
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  private touch(start: number, end: number): void {
    if (start < this.from) this.from = start;
    if (end > this.to) this.to = end;
  }
}
