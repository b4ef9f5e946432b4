import { closeSync } from 'node:fs';
import { Socket, type Server } from 'node:net';
import type { Disposable } from '../../base/disposable.ts';
import { acceptWaiting } from '../../terminal/native.ts';
import { descriptorOf } from '../../terminal/socket-peer.ts';

/** Connections taken from the backlog at once, at most: the backlog Node listens with (511), and one. */
export const ACCEPT_BATCH = 512;

/**
 * Hands `accept` every connection `server` takes and, with each, every other one waiting in the
 * backlog. libuv (1.45 on, so Node 20) accepts one connection per turn of the event loop: under a
 * flood of pane.send a turn took 14 to 30 ms, so 256 new connections waited seconds to be accepted,
 * and each one's frame timer started only then (issue 23: half-sent lines timed out after 10 to 26 s,
 * not 10, and new clients were refused meanwhile). Measured by bench/probes/send-flood.ts.
 */
export function acceptEveryWaiting(server: Server, accept: (socket: Socket) => void, options: { allowHalfOpen: boolean }): Disposable {
  const onConnection = (socket: Socket) => {
    accept(socket);
    const fd = descriptorOf(server);
    if (fd === null) return;
    for (const waiting of acceptWaiting(fd, ACCEPT_BATCH)) {
      let adopted: Socket;
      try {
        adopted = new Socket({ fd: waiting, allowHalfOpen: options.allowHalfOpen, readable: true, writable: true });
      } catch {
        closeSync(waiting); // not a stream socket after all: nothing to serve
        continue;
      }
      accept(adopted);
    }
  };
  server.on('connection', onConnection);
  return { dispose: () => void server.off('connection', onConnection) };
}
