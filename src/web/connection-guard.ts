import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Disposable } from '../base/disposable.ts';

/** Connections no request of which has yet carried a live session, kept at once: one more closes the oldest. */
export const MAX_UNSIGNED_CONNECTIONS = 64;
/** Connections of any kind served at once: past it a new one is closed as it is accepted. */
export const MAX_CONNECTIONS = 512;
/** From a connection's opening (or its previous reply) to the end of a request's headers. */
export const HEADERS_DEADLINE_MS = 10_000;
/** From a connection's opening (or its previous reply) to the last byte of a request's body. */
export const REQUEST_DEADLINE_MS = 30_000;

interface Watched {
  headers: NodeJS.Timeout | null;
  whole: NodeJS.Timeout | null;
}

/**
 * Holds `corral web`'s connections to their deadlines and its count of descriptors, with a timer of
 * its own per connection: Node's headersTimeout and requestTimeout are checked only every
 * connectionsCheckingInterval (30 s), so headers meant to close at 10 s closed at 30 s, and bodies
 * sent a byte every few seconds outlived 51 s. A connection that no signed-in request has used is
 * "unsigned"; a flood of them closes the oldest first, so a person signing in gets through.
 */
export class ConnectionGuard implements Disposable {
  private readonly watched = new Map<Socket, Watched>();
  /** Oldest first. */
  private readonly unsigned = new Set<Socket>();

  constructor(server: Server) {
    server.maxConnections = MAX_CONNECTIONS;
    server.on('connection', (socket: Socket) => this.opened(socket));
  }

  /** A request's headers arrived; `signed` when it carried a live session. */
  request(request: IncomingMessage, response: ServerResponse, signed: boolean): void {
    const socket = rawSocket(request.socket);
    const watched = this.watched.get(socket);
    if (watched === undefined) return;
    clear(watched, 'headers');
    if (signed) this.unsigned.delete(socket);
    let answered = false;
    let received = request.complete;
    const done = () => {
      if (!answered || !received) return;
      clear(watched, 'whole');
      if (!socket.destroyed) this.awaitRequest(socket, watched);
    };
    response.once('finish', () => ((answered = true), done()));
    if (!received) request.once('end', () => ((received = true), done()));
  }

  /** An upgrade's headers arrived: the WebSocket, if it is accepted, keeps to its own bounds. */
  upgrade(request: IncomingMessage, signed: boolean): void {
    const socket = rawSocket(request.socket);
    const watched = this.watched.get(socket);
    if (watched === undefined) return;
    clear(watched, 'headers');
    clear(watched, 'whole');
    if (signed) this.unsigned.delete(socket);
  }

  get unsignedCount(): number {
    return this.unsigned.size;
  }

  dispose(): void {
    for (const watched of this.watched.values()) {
      clear(watched, 'headers');
      clear(watched, 'whole');
    }
    this.watched.clear();
    this.unsigned.clear();
  }

  private opened(socket: Socket): void {
    const watched: Watched = { headers: null, whole: null };
    this.watched.set(socket, watched);
    this.unsigned.add(socket);
    socket.once('close', () => {
      clear(watched, 'headers');
      clear(watched, 'whole');
      this.watched.delete(socket);
      this.unsigned.delete(socket);
    });
    this.awaitRequest(socket, watched);
    if (this.unsigned.size > MAX_UNSIGNED_CONNECTIONS) this.unsigned.values().next().value!.destroy();
  }

  private awaitRequest(socket: Socket, watched: Watched): void {
    clear(watched, 'headers');
    clear(watched, 'whole');
    watched.headers = setTimeout(() => socket.destroy(), HEADERS_DEADLINE_MS).unref();
    watched.whole = setTimeout(() => socket.destroy(), REQUEST_DEADLINE_MS).unref();
  }
}

function clear(watched: Watched, which: keyof Watched): void {
  if (watched[which] !== null) clearTimeout(watched[which]);
  watched[which] = null;
}

/** The TCP socket under a request's (with TLS, the one the TLS socket wraps): the one 'connection' gave. */
function rawSocket(socket: Socket): Socket {
  return (socket as Socket & { _parent?: Socket })._parent ?? socket;
}
