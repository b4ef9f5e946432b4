import type { Disposable } from '../base/disposable.ts';
import { reduceHeap, trimAllocator } from './native.ts';

/** How often the trimmer looks whether output has stopped. */
export const TRIM_CHECK_MS = 2000;
/** Trims after output stops: at the first quiet check (with the heap asked back), and once more later. */
const TRIMS_AFTER_OUTPUT = 2;
/** Checks after the first trim until the second: by then V8 has usually collected the garbage buffers. */
export const TRIM_AGAIN_CHECKS = 6;

/**
 * Gives the allocator's free pages back to the system once output has stopped. Output passes through
 * buffers of every size, short-lived ones beside those kept (the pty host's rings, the emulator's
 * rows), and glibc's malloc keeps the pages freed in the middle of its heap: in the pty host they were
 * about as much again as the rings held. The trim runs at the first quiet check after output, and once
 * more TRIM_AGAIN_CHECKS later, since V8 frees a garbage buffer only at a collection (its memory
 * reducer runs some seconds after a process goes quiet). A busy process is never trimmed.
 *
 * V8's heap is asked back at the first trim too: the young generation grows under output (up to two
 * semi-spaces of 16 MiB) and V8 shrinks it only at a collection while the allocation rate is low, which
 * at rest, with nothing allocating, does not come. The collection asked for is incremental; what it
 * frees in the allocator (buffers' memory) goes back at the second trim.
 */
export class AllocatorTrim implements Disposable {
  private active = false;
  /** Checks until the next trim; -1 when none is owed. */
  private countdown = -1;
  private trimsOwed = 0;
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    private readonly trim: () => unknown = trimAllocator,
    intervalMs: number | null = TRIM_CHECK_MS,
    private readonly reduce: () => unknown = reduceHeap,
  ) {
    this.timer = intervalMs === null ? null : setInterval(() => this.check(), intervalMs);
    this.timer?.unref();
  }

  /** Output passed (cheap: called for every chunk). */
  noteActivity(): void {
    this.active = true;
  }

  /** One look: run by the interval (or a test). */
  check(): void {
    if (this.active) {
      this.active = false;
      this.trimsOwed = TRIMS_AFTER_OUTPUT;
      this.countdown = 0;
      return;
    }
    if (this.trimsOwed === 0) return;
    if (this.countdown > 0) {
      this.countdown -= 1;
      return;
    }
    if (this.trimsOwed === TRIMS_AFTER_OUTPUT) this.reduce();
    this.trim();
    this.trimsOwed -= 1;
    this.countdown = TRIM_AGAIN_CHECKS - 1;
  }

  dispose(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }
}
