import type { PageRpc } from './rpc.ts';

/** How long the cards on screen may move (a scroll) before the server is told. */
const WATCH_DELAY_MS = 100;

/**
 * Tells `corral web` which cards this page shows (board.watch), so that only their tails are read
 * again (src/web/board.ts): once the screen settled, only when they changed, none while the page is
 * hidden, and again on a new socket, which knows nothing of the last one's.
 */
export class CardWatch {
  private shown: string[] = [];
  private told: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly rpc: PageRpc) {
    document.addEventListener('visibilitychange', () => this.schedule());
  }

  show(ids: string[]): void {
    this.shown = ids;
    this.schedule();
  }

  reconnected(): void {
    this.told = null;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tell();
    }, WATCH_DELAY_MS);
  }

  private tell(): void {
    if (!this.rpc.open) return;
    const ids = document.visibilityState === 'visible' ? [...this.shown].sort() : [];
    const key = ids.join('\n');
    if (key === this.told) return;
    this.told = key;
    void this.rpc.call('board.watch', { ids }).catch(() => (this.told = null));
  }
}
