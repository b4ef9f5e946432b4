import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Assets } from './assets.ts';
import { Leases } from './leases.ts';
import { OriginCheck } from './origin-check.ts';
import { PageSocket } from './page-socket.ts';
import { ConnectionGuard } from './connection-guard.ts';
import { KEY_HEADER, PAGE_PROTOCOL, Sessions, offeredKey, sessionCookie, setCookie, type SessionEnd, type WebSession } from './sessions.ts';
import { LOGIN_PAGE } from './login-page.ts';
import { answerFromPush } from './push-answer.ts';
import { LINK_PAGE_HEADERS, answerFromLink, confirmationPage } from './answer-link.ts';
import type { WebBoard } from './web-board.ts';
import { WEB_MAX_MESSAGE_BYTES } from './wire.ts';

/** Page sockets served at once; one more is refused (503 on its upgrade). */
export const MAX_PAGE_SOCKETS = 32;
/** The largest request body the server reads (the token exchange is a few bytes). */
const MAX_BODY_BYTES = 4096;

export interface WebServerOptions {
  /** One daemon's board (OneDaemonBoard) or the fleet's (FleetBoard); the server starts and closes it. */
  board: WebBoard;
  assets: Assets;
  address: string;
  port: number;
  /** Extra Host names the server answers to (a LAN name, a reverse proxy's). */
  names?: readonly string[];
  tls?: { cert: string; key: string };
  log(message: string): void;
}

/** The close code of a page whose session ended (revoked, or evicted by a newer one): it signs in again. */
export const SIGNED_OUT_CLOSE_CODE = 4401;

/**
 * `corral web`'s HTTP and WebSocket server. Every request but the token exchange and the token answers
 * (`/push/answer`, `/answer`: a daemon's single-use token is their whole authority) needs a session
 * cookie, and the WebSocket, through which alone a page reads the daemon or acts, needs the session's
 * key as well (src/web/sessions.ts); every request's Host must be ours, and every upgrade and POST
 * must come from our own page (src/web/origin-check.ts). The token is never logged.
 */
export class WebServer {
  readonly sessions = new Sessions();
  private readonly board: WebBoard;
  private readonly leases = new Leases();
  private readonly http: Server;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: WEB_MAX_MESSAGE_BYTES, handleProtocols: (offered) => (offered.has(PAGE_PROTOCOL) ? PAGE_PROTOCOL : false) });
  private readonly guard: ConnectionGuard;
  private readonly pages = new Set<PageSocket>();
  private check!: OriginCheck;
  port = 0;

  constructor(private readonly options: WebServerOptions) {
    this.board = options.board;
    const handler = (request: IncomingMessage, response: ServerResponse) => void this.request(request, response);
    this.http = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler) : createHttpServer(handler);
    this.http.on('upgrade', (request, socket, head) => this.upgrade(request, socket, head));
    // Held by the guard's own timers; Node's, checked every 30 s, stay as a backstop.
    this.http.headersTimeout = 10_000;
    this.http.requestTimeout = 30_000;
    this.guard = new ConnectionGuard(this.http);
    this.sessions.onEnd((end) => this.signOut(end));
  }

  async start(): Promise<void> {
    await this.board.start();
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.address, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    const address = this.http.address();
    this.port = typeof address === 'object' && address !== null ? address.port : this.options.port;
    this.check = new OriginCheck({ address: this.options.address, port: this.port, names: this.options.names ?? [], tls: this.options.tls !== undefined });
  }

  /** Where this server is, without the token. */
  get origin(): string {
    const host = this.options.address.includes(':') ? `[${this.options.address}]` : this.options.address;
    return `${this.options.tls ? 'https' : 'http'}://${host}:${this.port}`;
  }

  /** The URL to open: it carries the token once; the page trades it for a cookie. */
  get url(): string {
    return `${this.origin}/#token=${this.sessions.token}`;
  }

  /** The pages a session has open. */
  pagesOf(session: WebSession): number {
    let count = 0;
    for (const page of this.pages) if (page.session === session) count++;
    return count;
  }

  /** Closes the pages of a session that ended, at once: they can read and do nothing more. */
  private signOut({ session, reason }: SessionEnd): void {
    this.options.log(`session ${session.label} ${reason}`);
    for (const page of this.pages) if (page.session === session) page.signOut(SIGNED_OUT_CLOSE_CODE, `session ${reason}`);
  }

  close(): Promise<void> {
    this.guard.dispose();
    for (const page of this.pages) page.close();
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    this.board.close();
    return new Promise((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private refuse(response: ServerResponse, status: number, message: string): void {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`${message}\n`);
  }

  private async request(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const hostProblem = this.check.host(request);
    const cookie = sessionCookie(request.headers.cookie);
    this.guard.request(request, response, hostProblem === null && this.sessions.byCookie(cookie) !== null);
    if (hostProblem) return this.refuse(response, 421, hostProblem);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (request.method === 'POST' && path === '/session') return this.exchange(request, response);
    if (request.method === 'POST' && path === '/push/answer') return this.pushAnswer(request, response);
    if (request.method === 'POST' && path === '/answer') return this.linkAnswer(request, response);
    if (request.method !== 'GET' && request.method !== 'HEAD') return this.refuse(response, 405, 'only GET, HEAD and POST /session');
    if (path === '/answer') return this.linkPage(request, response);
    if (path === '/session') {
      // The page asks whether its session still stands (its socket was refused: signed out, or the server away).
      const key = request.headers[KEY_HEADER];
      const live = this.sessions.byCookieAndKey(cookie, typeof key === 'string' ? key : undefined) !== null;
      if (!live) return this.refuse(response, 401, 'signed out: open the URL that `corral web` printed');
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      return void response.end('signed in\n');
    }
    if (this.sessions.byCookie(cookie) === null) {
      // The sign-in page alone, the same for everyone and holding nothing: it trades the token in the URL's
      // fragment (never sent, never logged) for a cookie. A 200, so that a first load logs no error in the
      // browser's console; everything else without a session is still refused.
      if (path !== '/') return this.refuse(response, 401, 'no session: open the URL that `corral web` printed');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS, 'content-security-policy': LOGIN_PAGE.policy });
      return void response.end(request.method === 'HEAD' ? undefined : LOGIN_PAGE.html);
    }
    const asset = this.options.assets.get(path);
    if (!asset) return this.refuse(response, 404, 'not found');
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const body = gzip ? asset.gzipped : asset.body;
    response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache', vary: 'accept-encoding', ...(gzip ? { 'content-encoding': 'gzip' } : {}), ...SECURITY_HEADERS });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /** The body of a POST from the page's own origin, bounded; null once the refusal (403, 413) is sent. */
  private async bodyFromOwnOrigin(request: IncomingMessage, response: ServerResponse): Promise<string | null> {
    const originProblem = this.check.origin(request);
    if (originProblem) {
      this.refuse(response, 403, originProblem);
      return null;
    }
    try {
      return await readBody(request, MAX_BODY_BYTES);
    } catch {
      this.refuse(response, 413, 'the body is too large');
      return null;
    }
  }

  /** POST /session with the token as its body: the session's cookie and, in the reply's body, its key, if the token is right. */
  private async exchange(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await this.bodyFromOwnOrigin(request, response);
    if (body === null) return;
    const signed = this.sessions.exchange(body.trim(), request.headers['user-agent']);
    if (signed === null) return this.refuse(response, 401, 'wrong token: open the URL that `corral web` printed');
    this.options.log(`session ${signed.session.label} signed in`);
    response.writeHead(200, { 'set-cookie': setCookie(signed.cookie, this.options.tls !== undefined), 'cache-control': 'no-store', 'content-type': 'application/json' });
    response.end(JSON.stringify({ key: signed.key, session: signed.session.label }));
  }

  /** POST /push/answer from the service worker: our own origin, no session; the token is the authority (src/web/push-answer.ts). */
  private async pushAnswer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await this.bodyFromOwnOrigin(request, response);
    if (body === null) return;
    const reply = await answerFromPush(body, this.board);
    this.options.log(`push answer: ${reply.body.outcome}`);
    response.writeHead(reply.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify(reply.body));
  }

  /** GET /answer, a webhook's answer link: no session, nothing typed; the page's form posts the answer (src/web/answer-link.ts). */
  private async linkPage(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const page = await confirmationPage(new URL(request.url ?? '/', 'http://x').searchParams, this.board);
    response.writeHead(page.status, LINK_PAGE_HEADERS);
    response.end(request.method === 'HEAD' ? undefined : page.html);
  }

  /** POST /answer from the link's page: our own origin, no session; the token is the authority. */
  private async linkAnswer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await this.bodyFromOwnOrigin(request, response);
    if (body === null) return;
    const page = await answerFromLink(body, this.board);
    this.options.log(`link answer: ${page.outcome}`);
    response.writeHead(page.status, LINK_PAGE_HEADERS);
    response.end(page.html);
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const deny = (status: number, message: string) => {
      socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${message}\n`);
    };
    const problem = this.check.host(request) ?? this.check.origin(request);
    if (problem) return deny(403, problem);
    if (new URL(request.url ?? '/', 'http://x').pathname !== '/socket') return deny(404, 'not found');
    // The cookie reaches every server on this host, whatever its port: the key, which only our own
    // page holds (its origin's storage), is what signs the socket in.
    const session = this.sessions.byCookieAndKey(sessionCookie(request.headers.cookie), offeredKey(request.headers['sec-websocket-protocol']));
    this.guard.upgrade(request, session !== null);
    if (session === null) return deny(401, 'no session: open the URL that `corral web` printed');
    if (this.pages.size >= MAX_PAGE_SOCKETS) return deny(503, `this server serves at most ${MAX_PAGE_SOCKETS} pages at once`);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const page = new PageSocket(ws, session, this.board, this.leases, this.options.log);
      this.pages.add(page);
      ws.once('close', () => this.pages.delete(page));
    });
  }
}

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' };

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
};

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.destroy();
        reject(new Error('too large'));
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
