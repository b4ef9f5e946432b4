import type { Server, Socket } from 'node:net';
import { peerCredentials } from './native.ts';

/** The descriptor under a socket or a listening server (Node keeps it on `_handle`); null when it has none. */
export function descriptorOf(owner: Socket | Server): number | null {
  const fd = (owner as unknown as { _handle?: { fd?: unknown } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/**
 * Who is on the other end of an accepted Unix socket, as the kernel recorded it at connect()
 * (SO_PEERCRED), never as the peer says; null when it cannot be read.
 */
export function socketPeer(socket: Socket): { pid: number; uid: number } | null {
  const fd = descriptorOf(socket);
  if (fd === null) return null;
  try {
    const peer = peerCredentials(fd);
    return peer.pid > 0 ? peer : null;
  } catch {
    return null;
  }
}
