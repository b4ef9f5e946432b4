import { connect } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { ClientError } from './with-daemon.ts';

/**
 * `corral server bridge`: this process's stdin and stdout joined to the daemon's socket, byte for
 * byte, so a client on another machine speaks JSON-RPC to this daemon over one ssh channel
 * (src/client/fleet/ssh-endpoint.ts). Each direction is piped with backpressure, so neither side
 * buffers more than a stream's high-water mark; the daemon's own 1 MiB frame limit bounds a line.
 * Resolves when the daemon closes or stdout fails (ssh's channel is gone, and with it the client,
 * whose waits the daemon then cancels); rejects with daemon_unreachable when no daemon answers.
 */
export function runBridge(socketPath: string, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let connected = false;
    const end = () => {
      socket.destroy();
      input.unpipe(socket);
      input.destroy(); // stdin would keep the process alive after the daemon closed
      resolve();
    };
    socket.once('connect', () => {
      connected = true;
      // stdin's end half-closes the socket (pipe's default), as a client that stops sending does: the
      // daemon still answers what was asked, and learns the client is gone when a write here fails.
      input.pipe(socket);
      socket.pipe(output, { end: false });
    });
    socket.once('close', () => {
      if (connected) end();
    });
    output.once('error', end); // stdout closed under us: the client is gone
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (connected) return end();
      reject(new ClientError('daemon_unreachable', `no daemon answers at ${socketPath} (${error.code ?? error.message}); start one with \`corral daemon\` or pass --socket`));
    });
  });
}
