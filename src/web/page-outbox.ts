import type { WebSocket } from 'ws';
import type { Disposable } from '../base/disposable.ts';

/** Output queued toward one page above which what can be repainted (terminals, the board) is dropped. */
export const SOCKET_HIGH_BYTES = 1024 * 1024;
/** Queued output under which a page that fell behind is caught up: a redraw of each terminal, the whole board. */
export const SOCKET_LOW_BYTES = 64 * 1024;
/** Output queued toward one page above which it is closed (1013): it asks for more than it reads. */
export const SOCKET_MAX_BYTES = 4 * 1024 * 1024;
/** The close code a page that fell too far behind gets; it reconnects and loads everything again. */
export const FELL_BEHIND_CLOSE_CODE = 1013;
const CATCH_UP_CHECK_MS = 100;
/** A page closed for falling behind has this long to take its close frame, then its socket is cut. */
export const CLOSE_GRACE_MS = 2000;

/**
 * What `corral web` sends one page, bounded. A message that can be repainted is dropped while more
 * than SOCKET_HIGH_BYTES is queued, and `catchUp` repaints once the queue is under SOCKET_LOW_BYTES;
 * replies and what cannot be repainted (a notification, a terminal's end) are always queued, and past
 * SOCKET_MAX_BYTES the page is closed, so a page that never reads holds at most that much.
 */
export class PageOutbox implements Disposable {
  private behind = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ws: WebSocket,
    private readonly catchUp: () => void,
    private readonly fellBehind: (queued: number) => void,
  ) {
    this.timer = setInterval(() => this.checkCaughtUp(), CATCH_UP_CHECK_MS);
  }

  /** Sends one message unless the page is closed; `repaintable` ones are dropped while it is behind. */
  send(message: object, repaintable: boolean): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    const queued = this.ws.bufferedAmount;
    if (queued > SOCKET_MAX_BYTES) return this.close(queued);
    if (repaintable && (this.behind || queued > SOCKET_HIGH_BYTES)) {
      this.behind = true;
      return;
    }
    this.ws.send(JSON.stringify(message));
  }

  dispose(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  private checkCaughtUp(): void {
    if (!this.behind || this.ws.bufferedAmount > SOCKET_LOW_BYTES) return;
    this.behind = false;
    this.catchUp();
  }

  private close(queued: number): void {
    this.dispose();
    this.fellBehind(queued);
    this.ws.close(FELL_BEHIND_CLOSE_CODE, 'the page fell behind; reconnect');
    // The close frame waits behind what the page has not read: a page that never reads is cut off.
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }
}
