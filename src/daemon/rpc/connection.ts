import type { Socket } from 'node:net';
import { CorralError } from '../../protocol/errors.ts';
import { FrameDecoder, MAX_FRAME_BYTES } from '../../protocol/framing.ts';
import { SERVER_PROBE } from '../../protocol/notifications.ts';
import type { NotificationDecl } from '../../protocol/method.ts';
import type { Disposable } from '../../base/disposable.ts';
import { Emitter } from '../../base/emitter.ts';
import { socketPeer } from '../../terminal/socket-peer.ts';
import type { Logger } from '../logger.ts';

export type ConnectionState = 'open' | 'closing' | 'closed';

export interface ConnectionHandlers {
  /** Serves one line; the connection counts it in flight until the promise settles. */
  frame(connection: Connection, frame: string): Promise<void>;
  /** A line exceeded the frame limit; the handler replies, then the connection closes. */
  overflow(connection: Connection): void;
}

/** A client that does not take its replies after this long once told to go is cut off. */
const CLOSE_GRACE_MS = 2000;
/** Requests of one connection served at once; further lines wait, and the socket is not read meanwhile. */
export const MAX_IN_FLIGHT = 64;
/** An unfinished line that gets no more bytes for this long closes the connection (`frame_timeout`). */
export const FRAME_IDLE_TIMEOUT_MS = 10_000;
/**
 * One reply at most this large once serialised (UTF-8 bytes): the frame bound holds both ways, since
 * clients refuse a longer line (src/client/connection.ts). A larger one is answered with `reply_too_large`.
 */
export const MAX_REPLY_BYTES = MAX_FRAME_BYTES;

/**
 * One NDJSON client on the socket. Reading pauses while the client is not taking its replies
 * (the socket's write buffer is over its high watermark) or while MAX_IN_FLIGHT of its requests
 * are being served, and resumes once both have cleared.
 */
export class Connection implements Disposable {
  private lifecycle: ConnectionState = 'open';
  private readonly decoder = new FrameDecoder();
  private readonly closed: Emitter<Connection>;
  private graceTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private readonly waiting: string[] = [];
  private pumpScheduled = false;
  private idleTimer: NodeJS.Timeout | null = null;
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
    this.peer = socketPeer(socket);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => this.resumeReading());
    // The server allows half-open sockets so that a client may send, shut its side, and still read replies.
    socket.on('end', () => {
      this.inputEnded = true;
      if (this.inFlight === 0 && this.waiting.length === 0) this.close();
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

  /** No request of this connection is being served: nothing it asked for is waiting to be answered. */
  get idle(): boolean {
    return this.inFlight === 0;
  }

  /** Bytes written but not yet taken by the client: what an event stream watches to drop a slow consumer. */
  get bufferedBytes(): number {
    return this.socket.writableLength;
  }

  /** Writes one message as a line. Returns false when the connection is no longer open. */
  send(message: unknown): boolean {
    if (this.lifecycle !== 'open' || this.socket.destroyed) return false;
    if (!this.socket.write(`${serialise(message)}\n`)) this.pauseReading();
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
    this.waiting.push(...frames);
    this.pump();
    if (overflow) {
      this.handlers.overflow(this);
      this.close();
    }
  }

  /**
   * Starts the next waiting line, one per turn of the event loop so that a burst of requests yields to
   * signals, timers and other clients, up to the in-flight bound; reading stays paused while any waits.
   */
  private pump(): void {
    if (this.lifecycle === 'open' && this.inFlight < MAX_IN_FLIGHT && this.waiting.length > 0) {
      const frame = this.waiting.shift()!;
      this.inFlight += 1;
      void this.handlers.frame(this, frame).finally(() => {
        this.inFlight -= 1;
        // Yield to the event loop between requests: a burst of cheap ones must not starve signals and timers.
        this.schedulePump();
        if (this.inputEnded && this.inFlight === 0 && this.waiting.length === 0) this.close();
      });
      if (this.waiting.length > 0 && this.inFlight < MAX_IN_FLIGHT) this.schedulePump();
    }
    if (this.waiting.length > 0) this.pauseReading();
    else this.resumeReading();
  }

  private pauseReading(): void {
    this.socket.pause();
    // A line cut off by our own pause is not the client's delay.
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private resumeReading(): void {
    if (this.lifecycle !== 'open' || this.waiting.length > 0 || this.socket.writableNeedDrain) return;
    this.socket.resume();
    this.armIdleTimer();
  }

  /** A half-sent line may not be held open forever (a slow client holding memory and a connection). */
  private armIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.decoder.buffered === 0 || this.socket.isPaused()) return;
    this.idleTimer = setTimeout(() => {
      this.log.debug({ bytes: this.decoder.buffered }, 'unfinished line timed out; closing connection');
      const error = new CorralError('frame_timeout', `a line stayed unfinished for ${FRAME_IDLE_TIMEOUT_MS} ms; the connection is closed`, {
        limitMs: FRAME_IDLE_TIMEOUT_MS,
      });
      this.send({ jsonrpc: '2.0', id: null, error: error.toJSONRPC() });
      this.close();
    }, FRAME_IDLE_TIMEOUT_MS);
    this.idleTimer.unref();
  }

  private finish(): void {
    if (this.lifecycle === 'closed') return;
    this.lifecycle = 'closed';
    if (this.graceTimer) clearTimeout(this.graceTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.waiting.length = 0;
    if (this.decoder.buffered > 0) this.log.debug({ bytes: this.decoder.buffered }, 'connection closed mid-line');
    this.aborter.abort(new Error('connection closed'));
    this.closed.fire(this);
    this.closed.dispose();
  }
}

/**
 * One message as a line. A reply that cannot be serialised, or is over MAX_REPLY_BYTES, becomes a
 * `reply_too_large` error for the same request, so no request goes unanswered.
 */
function serialise(message: unknown): string {
  let text: string | null = null;
  try {
    text = JSON.stringify(message);
  } catch {
    // RangeError: the string would exceed V8's limit
  }
  // A string's length counts UTF-16 units, up to 3 bytes each: only a long one is measured in bytes.
  if (text !== null && (text.length * 3 <= MAX_REPLY_BYTES || Buffer.byteLength(text) <= MAX_REPLY_BYTES)) return text;
  const id = (message as { id?: unknown } | null)?.id ?? null;
  const error = new CorralError('reply_too_large', `the reply is over ${MAX_REPLY_BYTES} bytes, the protocol's frame bound; ask for less (pane.read pages with lines and offset; without ansi a screen is smaller)`, {
    limit: MAX_REPLY_BYTES,
  });
  return JSON.stringify({ jsonrpc: '2.0', id, error: error.toJSONRPC() });
}
