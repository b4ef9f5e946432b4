import { connect, type Socket } from 'node:net';
import type { Disposable } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import { CorralError, isErrorCode } from '../protocol/errors.ts';
import { FrameDecoder } from '../protocol/framing.ts';
import type { MethodDecl, NotificationDecl } from '../protocol/method.ts';
import { SERVER_STATUS, type ServerStatus } from '../protocol/methods/server.ts';
import { PROTOCOL_VERSION } from '../protocol/version.ts';

export type ClientErrorCode = 'daemon_unreachable' | 'protocol_mismatch' | 'connection_closed' | 'bad_reply' | 'timeout';

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

/** One NDJSON JSON-RPC connection to the daemon. Requests may be concurrent; notifications go to listeners. */
export class DaemonClient {
  private readonly pending = new Map<number, Pending>();
  private readonly notifications = new Map<string, Emitter<unknown>>();
  private readonly decoder = new FrameDecoder(Number.POSITIVE_INFINITY);
  private nextId = 1;
  private closedError: Error | null = null;
  private readonly closed = new Emitter<Error>();

  private constructor(
    private readonly socket: Socket,
    readonly socketPath: string,
  ) {
    socket.on('data', (chunk: Buffer) => {
      for (const frame of this.decoder.push(chunk).frames) this.receive(frame);
    });
    socket.on('error', () => {});
    socket.on('close', () => this.fail(new ClientError('connection_closed', `the daemon at ${socketPath} closed the connection`)));
  }

  static connect(socketPath: string, timeoutMs = CONNECT_TIMEOUT_MS): Promise<DaemonClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => socket.destroy(new Error('connect timed out')), Math.min(timeoutMs, CONNECT_TIMEOUT_MS));
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new DaemonClient(socket, socketPath));
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const why = error.code ?? error.message;
        reject(new ClientError('daemon_unreachable', `no daemon answers at ${socketPath} (${why}); start one with \`corral daemon\` or pass --socket`));
      });
    });
  }

  call<P, R>(method: MethodDecl<P, R>, params: P): Promise<R> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: method.name, params })}\n`);
    });
  }

  onNotification<P>(notification: NotificationDecl<P>, listener: (params: P) => void): Disposable {
    const emitter = this.notifications.get(notification.name) ?? new Emitter<unknown>();
    this.notifications.set(notification.name, emitter);
    return emitter.event(listener as (params: unknown) => void);
  }

  /** Runs once when the connection ends, for whatever reason (long-lived streams stop on it). */
  onClose(listener: (error: Error) => void): Disposable {
    return this.closed.event(listener);
  }

  dispose(): void {
    this.fail(new ClientError('connection_closed', 'the client was disposed'));
    this.socket.destroy();
  }

  private receive(frame: string): void {
    let reply: Reply;
    try {
      reply = JSON.parse(frame) as Reply;
    } catch {
      return this.fail(new ClientError('bad_reply', `the daemon at ${this.socketPath} sent a line that is not JSON`));
    }
    if (typeof reply.method === 'string' && reply.id === undefined) {
      this.notifications.get(reply.method)?.fire(reply.params);
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
    this.closed.fire(error);
    this.closed.dispose();
  }
}

function toCorralError(error: NonNullable<Reply['error']>): CorralError {
  const { code: stable, ...details } = error.data ?? {};
  const message = typeof error.message === 'string' ? error.message : 'the daemon reported an error';
  return new CorralError(isErrorCode(stable) ? stable : 'internal_error', message, details);
}

/** Checks once per connection that client and daemon speak the same protocol. */
export async function checkProtocol(client: DaemonClient): Promise<ServerStatus> {
  const status = await client.call(SERVER_STATUS, {});
  if (status.protocolVersion !== PROTOCOL_VERSION) {
    throw new ClientError(
      'protocol_mismatch',
      `this corral speaks protocol ${PROTOCOL_VERSION} but the daemon at ${client.socketPath} (version ${status.version}, ` +
        `pid ${status.pid}) speaks ${status.protocolVersion}; restart the daemon from the same checkout`,
    );
  }
  return status;
}

/**
 * Connects, checks the protocol, runs `use`, and always closes the connection. With `deadlineMs`, one
 * deadline covers all of it (connect, the protocol check, the call and its answer): a daemon that
 * accepts and never answers fails with `timeout` instead of holding the caller forever.
 */
export async function withDaemon<T>(
  socketPath: string,
  use: (client: DaemonClient, status: ServerStatus) => Promise<T>,
  options: { deadlineMs?: number } = {},
): Promise<T> {
  let client: DaemonClient | null = null;
  let abandoned = false;
  const session = (async () => {
    const connected = await DaemonClient.connect(socketPath, options.deadlineMs);
    if (abandoned) {
      connected.dispose();
      throw new ClientError('timeout', 'abandoned');
    }
    client = connected;
    try {
      return await use(connected, await checkProtocol(connected));
    } finally {
      connected.dispose();
    }
  })();
  if (options.deadlineMs === undefined) return session;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned = true;
      (client as DaemonClient | null)?.dispose();
      reject(new ClientError('timeout', `the daemon at ${socketPath} did not answer within ${options.deadlineMs} ms`));
    }, options.deadlineMs);
  });
  session.catch(() => {}); // its failure after the deadline has nobody to tell
  try {
    return await Promise.race([session, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
