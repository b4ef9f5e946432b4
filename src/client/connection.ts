import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Disposable } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import { CorralError, isErrorCode } from '../protocol/errors.ts';
import { FrameDecoder, MAX_FRAME_BYTES } from '../protocol/framing.ts';
import type { MethodDecl, NotificationDecl } from '../protocol/method.ts';

export type ClientErrorCode =
  | 'daemon_unreachable'
  | 'protocol_mismatch'
  | 'connection_closed'
  | 'bad_reply'
  | 'timeout'
  /** The daemon (or whatever answers for it) sent a line over the protocol's 1 MiB bound; the connection was closed. */
  | 'frame_too_large'
  /** A fleet target or command names a host the config does not (docs/fleet.md). */
  | 'host_not_found';

/** A failure on the client's side of the socket (never sent by the daemon). */
export class ClientError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Reply {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: { code?: unknown } & Record<string, unknown> };
}

const CONNECT_TIMEOUT_MS = 5000;
/**
 * Requests one connection may have unanswered. A daemon serves 64 at once and reads on as they finish;
 * a peer that leaves this many unanswered while its stream goes on (a host that sends events for ever
 * more panes, each read asked for) is cut off, so that what the client waits for cannot grow without end.
 */
export const MAX_PENDING_REQUESTS = 10_000;

/**
 * One NDJSON JSON-RPC connection to the daemon, used by the CLI and by `corral/client`: over the
 * daemon's socket, or over any byte stream that reaches it (`ssh box corral server bridge`, see
 * src/client/fleet/ssh-endpoint.ts). Requests may be concurrent; notifications go to listeners. It
 * never reconnects: `corral/client` does that above it.
 */
export class DaemonConnection {
  private readonly pending = new Map<number, Pending>();
  private readonly notifications = new Map<string, Emitter<unknown>>();
  /** Holds the protocol's bound on what comes in too: an unfinished line never grows past 1 MiB (docs/protocol.md, "Framing"). */
  private readonly decoder = new FrameDecoder(MAX_FRAME_BYTES);
  private nextId = 1;
  private closedError: Error | null = null;
  /** What the daemon said when it refused this connection's input, before closing it. */
  private refusal: CorralError | null = null;
  private readonly closeEmitter = new Emitter<Error>();

  private constructor(
    private readonly socket: Duplex,
    /** Where the daemon is, for messages: its socket path, or the host a bridge reaches. */
    readonly socketPath: string,
    /** Why the stream ended, when its owner knows better than "the daemon closed it" (ssh's own reason). */
    closeReason: () => string | null = () => null,
  ) {
    socket.on('data', (chunk: Buffer) => {
      const { frames, overflow } = this.decoder.push(chunk);
      for (const frame of frames) if (this.closedError === null) this.receive(frame);
      if (overflow && this.closedError === null) {
        this.breakOff(
          new ClientError(
            'frame_too_large',
            `the daemon at ${socketPath} sent a line longer than 1 MiB (${MAX_FRAME_BYTES} bytes), the protocol's bound, which no corral daemon sends; the connection was closed: check that what answers there is corral`,
          ),
        );
      }
    });
    socket.on('error', () => {});
    socket.on('close', () =>
      this.fail(
        this.refusal ??
          new ClientError(
            'connection_closed',
            closeReason() ?? `the daemon at ${socketPath} closed the connection (it stopped or crashed; agents keep running): run the command again once it is back`,
          ),
      ),
    );
  }

  /** A connection over a stream that already reaches the daemon; `label` names it in messages. */
  static over(stream: Duplex, label: string, closeReason?: () => string | null): DaemonConnection {
    return new DaemonConnection(stream, label, closeReason);
  }

  static connect(socketPath: string, timeoutMs = CONNECT_TIMEOUT_MS): Promise<DaemonConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => socket.destroy(new Error('connect timed out')), Math.min(timeoutMs, CONNECT_TIMEOUT_MS));
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new DaemonConnection(socket, socketPath));
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const why = error.code ?? error.message;
        reject(new ClientError('daemon_unreachable', `no daemon answers at ${socketPath} (${why}); start one with \`corral daemon\` or pass --socket`));
      });
    });
  }

  call<P, R>(method: MethodDecl<P, R>, params: P): Promise<R> {
    return this.request(method.name, params) as Promise<R>;
  }

  /** A request by method name: the typed client's `call` checks the name and types at compile time. */
  request(method: string, params: unknown): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    const line = `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
    // The daemon answers a longer line with frame_too_large and closes the connection: refuse it here
    // and keep the connection, so the caller learns what was wrong and its other calls go on.
    const bytes = Buffer.byteLength(line);
    if (bytes > MAX_FRAME_BYTES) {
      return Promise.reject(
        new CorralError('frame_too_large', `the ${method} request is ${bytes} bytes; the daemon takes a request of at most ${MAX_FRAME_BYTES} bytes: send less`, {
          bytes,
          limit: MAX_FRAME_BYTES,
        }),
      );
    }
    if (this.pending.size >= MAX_PENDING_REQUESTS) {
      const error = new ClientError('timeout', `the daemon at ${this.socketPath} left ${MAX_PENDING_REQUESTS} requests unanswered; the connection was closed`);
      this.breakOff(error);
      return Promise.reject(error);
    }
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(line);
    });
  }

  /** Whether the connection has ended (closed by either side or disposed). */
  get closed(): boolean {
    return this.closedError !== null;
  }

  onNotification<P>(notification: NotificationDecl<P>, listener: (params: P) => void): Disposable {
    const emitter = this.notifications.get(notification.name) ?? new Emitter<unknown>();
    this.notifications.set(notification.name, emitter);
    return emitter.event(listener as (params: unknown) => void);
  }

  /** Runs once when the connection ends, for whatever reason (long-lived streams stop on it). */
  onClose(listener: (error: Error) => void): Disposable {
    return this.closeEmitter.event(listener);
  }

  dispose(): void {
    this.breakOff(new ClientError('connection_closed', 'the client was disposed'));
  }

  /** Ends the connection for `error`: every pending call and close listener is told it, and nothing more is read. */
  breakOff(error: ClientError): void {
    this.fail(error);
    this.socket.destroy();
  }

  private receive(frame: string): void {
    let reply: Reply;
    try {
      reply = JSON.parse(frame) as Reply;
    } catch {
      return this.breakOff(new ClientError('bad_reply', `the daemon at ${this.socketPath} sent a line that is not JSON`));
    }
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
      return this.breakOff(new ClientError('bad_reply', `the daemon at ${this.socketPath} sent a line that is not a JSON-RPC message`));
    }
    if (typeof reply.method === 'string' && reply.id === undefined) {
      this.notifications.get(reply.method)?.fire(reply.params);
      return;
    }
    if (reply.id === null && reply.error) {
      // The daemon refused the connection's input (a line too long or unfinished) and closes it next.
      this.refusal = toCorralError(reply.error);
      return;
    }
    const pending = typeof reply.id === 'number' ? this.pending.get(reply.id) : undefined;
    if (!pending) return;
    this.pending.delete(reply.id as number);
    if (reply.error) pending.reject(toCorralError(reply.error));
    else pending.resolve(reply.result);
  }

  private fail(error: Error): void {
    this.closedError ??= error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.closeEmitter.fire(error);
    this.closeEmitter.dispose();
  }
}

function toCorralError(error: NonNullable<Reply['error']>): CorralError {
  const { code: stable, ...details } = error.data ?? {};
  const message = typeof error.message === 'string' ? error.message : 'the daemon reported an error';
  return new CorralError(isErrorCode(stable) ? stable : 'internal_error', message, details);
}
