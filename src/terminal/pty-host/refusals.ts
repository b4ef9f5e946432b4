import type { Socket } from 'node:net';
import type { Disposable } from '../../base/disposable.ts';
import { RateLimit } from '../../base/rate-limit.ts';
import { HOST_PROTOCOL_VERSION, encodeControl, type HostRefusal } from './wire.ts';

/** How long a refused connection stays open, unread, so that its peer reads why. */
const REFUSAL_LINGER_MS = 1_000;
/** Refused connections left open at once; past them a refused connection is closed at once. */
const MAX_REFUSED_LINGERING = 64;

/**
 * How the pty host refuses a connection: it tells the peer why (a `refused` message with a stable
 * reason), reads nothing more from it, and closes it REFUSAL_LINGER_MS later, not at once: closed
 * while the peer still writes its hello, the peer's write fails (EPIPE) and it never reads the
 * reason. Past MAX_REFUSED_LINGERING such sockets (a flood), the next is closed at once. The log
 * says why, at most LOG_BURST times a minute per reason.
 */
export class Refusals implements Disposable {
  private readonly lingering = new Set<Socket>();
  private readonly logLimit = new RateLimit();

  constructor(private readonly log: (message: string) => void) {}

  /** Whether `socket` was refused (or is closed): nothing it sends is read any more. */
  has(socket: Socket): boolean {
    return socket.destroyed || !socket.writable;
  }

  refuse(socket: Socket, reason: HostRefusal, message: string): void {
    if (this.has(socket)) return;
    const dropped = this.logLimit.admit(reason);
    if (dropped !== null) this.log(`refused a connection (${reason}): ${message}${dropped > 0 ? ` (${dropped} more refusals not logged)` : ''}`);
    socket.pause();
    socket.end(encodeControl({ t: 'refused', version: HOST_PROTOCOL_VERSION, reason, message }));
    if (this.lingering.size >= MAX_REFUSED_LINGERING) {
      socket.destroySoon();
      return;
    }
    this.lingering.add(socket);
    const linger = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
    socket.once('close', () => {
      clearTimeout(linger);
      this.lingering.delete(socket);
    });
  }

  dispose(): void {
    for (const socket of this.lingering) socket.destroy();
    this.lingering.clear();
  }
}
