import type { Disposable } from '../../base/disposable.ts';
import { becomeChildSubreaper, reapChildren } from '../native.ts';

/** How soon to look again when a pane's own exit, not reaped yet by node-pty, hides the rest. */
const HELD_RETRY_MS = 20;

/**
 * Makes this process a child subreaper, so that no pane's process leaves its tree by forking twice,
 * and reaps the orphans it inherits that way when they exit. It never reaps a pane's own process:
 * node-pty waits for that pid on a thread of its own and reports its exit code from that wait
 * (node-pty's src/unix/pty.cc, SetupExitCallback); `panePids` names them.
 */
export class OrphanReaper implements Disposable {
  private retry: NodeJS.Timeout | null = null;
  private readonly onChild = () => this.reap();

  constructor(private readonly panePids: () => number[]) {
    becomeChildSubreaper();
    process.on('SIGCHLD', this.onChild);
  }

  /** Reaps what has exited; called on SIGCHLD and after each pane's exit. */
  reap(): void {
    const { held } = reapChildren(this.panePids());
    if (held && this.retry === null) {
      this.retry = setTimeout(() => {
        this.retry = null;
        this.reap();
      }, HELD_RETRY_MS);
    }
  }

  dispose(): void {
    process.off('SIGCHLD', this.onChild);
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
  }
}
