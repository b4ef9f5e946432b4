import { chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Disposable } from '../base/disposable.ts';
import type { Sessions, WebSession } from './sessions.ts';

/** The most bytes of one request on the control socket (a request is a few dozen). */
const MAX_REQUEST_BYTES = 1024;
/** A connection that has not sent its request by then is closed. */
const REQUEST_DEADLINE_MS = 5000;

/** A session as `corral web sessions` shows it: never its cookie or key. */
export interface SessionRow {
  number: number;
  label: string;
  signedIn: number;
  userAgent: string;
  pages: number;
}

/** What the control socket answers: every session, or those a revoke ended. */
export type ControlReply = { sessions: SessionRow[] } | { revoked: SessionRow[] } | { error: string };
export type ControlRequest = { list: true } | { revoke: number | 'all' };

/**
 * Where `corral web` on `port` answers `corral web sessions`: beside the daemon's socket, in the
 * folder the daemon keeps private (docs/operations.md), one socket per port: `corral.sock.web-7380`.
 */
export function controlSocketPath(daemonSocket: string, port: number): string {
  return `${daemonSocket}.web-${port}`;
}

/**
 * The private socket through which `corral web sessions` lists and revokes the server's sessions:
 * a Unix socket made with mode 0600, so the kernel lets only this user connect. It hands out no
 * secret and signs nothing in, so the most a process of this user (one in a pane too) can do with it
 * is what it could do anyway by stopping `corral web`: sign the person's browsers out.
 */
export class SessionsControl implements Disposable {
  private constructor(
    private readonly server: Server,
    readonly path: string,
  ) {}

  /** Listens at `path`; a socket left there by a server that is gone is replaced, a live one is not (an error). */
  static async listen(path: string, sessions: Sessions, pagesOf: (session: WebSession) => number): Promise<SessionsControl> {
    if (await answers(path)) throw new Error(`another corral web answers at ${path}`);
    try {
      unlinkSync(path);
    } catch {
      // none there
    }
    const server = createServer((socket) => serve(socket, sessions, pagesOf));
    // Made private as it is made: the mode is set by the umask at bind(), before anyone could connect.
    const umask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } finally {
      process.umask(umask);
    }
    chmodSync(path, 0o600);
    return new SessionsControl(server, path);
  }

  dispose(): void {
    this.server.close();
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

function serve(socket: Socket, sessions: Sessions, pagesOf: (session: WebSession) => number): void {
  socket.setTimeout(REQUEST_DEADLINE_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    if (text.length > MAX_REQUEST_BYTES) return void socket.destroy();
    const end = text.indexOf('\n');
    if (end < 0) return;
    socket.end(`${JSON.stringify(answer(text.slice(0, end), sessions, pagesOf))}\n`);
  });
}

function answer(line: string, sessions: Sessions, pagesOf: (session: WebSession) => number): ControlReply {
  const row = (session: WebSession): SessionRow => ({ number: session.number, label: session.label, signedIn: session.signedIn, userAgent: session.userAgent, pages: pagesOf(session) });
  let request: Partial<{ list: unknown; revoke: unknown }>;
  try {
    request = JSON.parse(line) as typeof request;
  } catch {
    return { error: 'the request is not JSON' };
  }
  if (request?.list === true) return { sessions: sessions.list().map(row) };
  if (request?.revoke === 'all' || (typeof request?.revoke === 'number' && Number.isInteger(request.revoke))) {
    // Counted before: a revoked session's pages close as it ends.
    const before = new Map(sessions.list().map((session) => [session.number, row(session)]));
    return { revoked: sessions.revoke(request.revoke).map((session) => before.get(session.number)!) };
  }
  return { error: 'ask {"list": true} or {"revoke": N | "all"}' };
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** One request to the `corral web` whose control socket is at `path`; rejects with a message a person can act on. */
export function askSessions(path: string, request: ControlRequest): Promise<ControlReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.once('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.once('end', () => {
      try {
        resolve(JSON.parse(text) as ControlReply);
      } catch {
        reject(new Error(`corral web at ${path} answered no JSON`));
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? `no corral web answers at ${path}: is it running, on this port (--port)?` : `${path}: ${error.message}`)),
    );
  });
}
