import type { Socket } from 'node:net';
import { FrameDecoder } from '../protocol/framing.ts';
import { SERVER_PROBE } from '../protocol/events.ts';
import type { NotificationDecl } from '../protocol/method.ts';
import type { Disposable } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import { peerCredentials } from '../terminal/native.ts';
import type { Logger } from './logger.ts';

export type ConnectionState = 'open' | 'closing' | 'closed';

export interface ConnectionHandlers {
  /** Serves one line; the connection counts it in flight until the promise settles. */
  frame(connection: Connection, frame: string): Promise<void>;
  /** A line exceeded the frame limit; the handler replies, then the connection closes. */
  overflow(connection: Connection): void;
}

/** A client that does not take its replies after this long once told to go is cut off. */
const CLOSE_GRACE_MS = 2000;

/**
 * One NDJSON client on the socket. Reading pauses while the client is not taking its replies
 * (the socket's write buffer is over its high watermark) and resumes on drain.
 */
export class Connection implements Disposable {
  private lifecycle: ConnectionState = 'open';
  private readonly decoder = new FrameDecoder();
  private readonly closed: Emitter<Connection>;
  private graceTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private readonly aborter = new AbortController();
  private inputEnded = false;
  /** Who connected, as the kernel recorded it at connect(); null when it cannot be read. */
  readonly peer: { pid: number; uid: number } | null;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly handlers: ConnectionHandlers,
    readonly log: Logger,
  ) {
    this.closed = new Emitter((error) => log.error({ err: error }, 'connection close listener failed'));
    this.peer = readPeer(socket);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => {
      if (this.lifecycle === 'open') socket.resume();
    });
    // The server allows half-open sockets so that a client may send, shut its side, and still read replies.
    socket.on('end', () => {
      this.inputEnded = true;
      if (this.inFlight === 0) this.close();
      // A gone client and a half-closed one look alike until a write: a write to a gone one fails,
      // closes the connection and aborts `signal`, so its pending waits are cancelled at once.
      else this.notify(SERVER_PROBE, {});
    });
    socket.on('error', (error) => log.debug({ err: error }, 'connection error'));
    socket.on('close', () => this.finish());
  }

  /** Aborted once the connection has closed. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  get state(): ConnectionState {
    return this.lifecycle;
  }

  /** Bytes written but not yet taken by the client: what an event stream watches to drop a slow consumer. */
  get bufferedBytes(): number {
    return this.socket.writableLength;
  }

  /** Writes one message as a line. Returns false when the connection is no longer open. */
  send(message: unknown): boolean {
    if (this.lifecycle !== 'open' || this.socket.destroyed) return false;
    if (!this.socket.write(`${JSON.stringify(message)}\n`)) this.socket.pause();
    return true;
  }

  notify<P>(notification: NotificationDecl<P>, params: P): boolean {
    return this.send({ jsonrpc: '2.0', method: notification.name, params });
  }

  onClose(listener: (connection: Connection) => void): Disposable {
    return this.closed.event(listener);
  }

  /** Flushes what was written, then ends; input still arriving is discarded. */
  close(): void {
    if (this.lifecycle !== 'open') return;
    this.lifecycle = 'closing';
    this.socket.resume();
    this.socket.end();
    this.graceTimer = setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS);
    this.graceTimer.unref();
  }

  dispose(): void {
    this.socket.destroy();
    this.finish();
  }

  private receive(chunk: Buffer): void {
    if (this.lifecycle !== 'open') return;
    const { frames, overflow } = this.decoder.push(chunk);
    for (const frame of frames) {
      this.inFlight += 1;
      void this.handlers.frame(this, frame).finally(() => {
        this.inFlight -= 1;
        if (this.inputEnded && this.inFlight === 0) this.close();
      });
    }
    if (overflow) {
      this.handlers.overflow(this);
      this.close();
    }
  }

  private finish(): void {
    if (this.lifecycle === 'closed') return;
    this.lifecycle = 'closed';
    if (this.graceTimer) clearTimeout(this.graceTimer);
    if (this.decoder.buffered > 0) this.log.debug({ bytes: this.decoder.buffered }, 'connection closed mid-line');
    this.aborter.abort(new Error('connection closed'));
    this.closed.fire(this);
    this.closed.dispose();
  }
}

/** The peer credentials of an accepted Unix socket, through its descriptor (Node keeps it on `_handle`). */
function readPeer(socket: Socket): { pid: number; uid: number } | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return null;
  try {
    const peer = peerCredentials(fd);
    return peer.pid > 0 ? peer : null;
  } catch {
    return null;
  }
}
