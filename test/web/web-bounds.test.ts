// corral web's bounds (docs/web.md, "Bounds"): sessions, pages and connections are capped, and
// requests held to their deadlines.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';
import { httpRequest, pageSocket, sessionCookieOf, startWeb, type PageClient, type WebProcess } from '../../harness/web.ts';

/** The web server's caps (src/web/sessions.ts MAX_SESSIONS, src/web/web-server.ts MAX_PAGE_SOCKETS, src/web/connection-guard.ts). */
const MAX_SESSIONS = 64;
const MAX_PAGE_SOCKETS = 32;
const MAX_UNSIGNED_CONNECTIONS = 64;
const HEADERS_DEADLINE_MS = 10_000;
const REQUEST_DEADLINE_MS = 30_000;
/**
 * How late past its deadline a connection may close: a timer's lateness on a loaded machine. Node's
 * own checks, which held these bounds before, ran every 30 s and closed them 20 s and more late.
 */
const LATE_MS = 5000;

/** A raw connection to the server, and when it closed (ms after it opened; null while open). */
async function rawConnection(origin: string): Promise<{ socket: Socket; opened: number; closedAfter: () => number | null; closed: Promise<number> }> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const opened = Date.now();
  let closedAfter: number | null = null;
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve((closedAfter = Date.now() - opened))));
  return { socket, opened, closedAfter: () => closedAfter, closed };
}

/** Writes `text` every `everyMs` until the socket closes: a client too slow to finish its request. */
function drip(socket: Socket, text: string, everyMs: number): void {
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(text)), everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('corral web: bounds', () => {
  const session = useDaemon();
  let web: WebProcess;

  before(async () => {
    web = await startWeb(session.daemon);
  });

  after(async () => {
    await web?.dispose();
  });

  it('keeps at most 64 sessions: the oldest is forgotten, and its open page closed at once', async () => {
    const cookies: string[] = [await sessionCookieOf(web)];
    const oldest = await pageSocket(web, { origin: web.origin, cookie: cookies[0]! });
    const closed = new Promise<number>((resolve) => oldest.ws.once('close', (code) => resolve(code)));
    for (let i = 1; i <= MAX_SESSIONS; i++) cookies.push(await sessionCookieOf(web));
    assert.equal(await closed, 4401, "the evicted session's socket is closed as signed out");
    assert.equal((await httpRequest(web.origin, '/app.js', { headers: { cookie: cookies[0]! } })).status, 401, 'the oldest session is gone');
    await assert.rejects(pageSocket(web, { origin: web.origin, cookie: cookies[0]! }), { status: 401 });
    assert.equal((await httpRequest(web.origin, '/app.js', { headers: { cookie: cookies[1]! } })).status, 200);
    assert.equal((await httpRequest(web.origin, '/app.js', { headers: { cookie: cookies.at(-1)! } })).status, 200);
  });

  it('serves at most 32 pages at once: one more upgrade gets 503, and a closed one makes room', async () => {
    const cookie = await sessionCookieOf(web);
    const pages: PageClient[] = [];
    try {
      for (let i = 0; i < MAX_PAGE_SOCKETS; i++) pages.push(await pageSocket(web, { origin: web.origin, cookie }));
      await assert.rejects(pageSocket(web, { origin: web.origin, cookie }), (error: { status?: number }) => error.status === 503);
      pages.pop()!.close();
      let next: PageClient | null = null;
      await waitFor(async () => (next = await pageSocket(web, { origin: web.origin, cookie }).catch(() => null)) !== null, { what: 'room for one more page' });
      pages.push(next!);
    } finally {
      for (const page of pages) page.close();
    }
  });

  it('closes a connection whose request headers are not done at 10 s, and one whose body is not done at 30 s', async () => {
    const { host } = new URL(web.origin);
    const headers = await rawConnection(web.origin);
    headers.socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\n`);
    drip(headers.socket, 'X-Slow: 1\r\n', 1000);
    const body = await rawConnection(web.origin);
    body.socket.write(`POST /session HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${web.origin}\r\nContent-Length: 4000\r\n\r\n`);
    drip(body.socket, 'x', 1000);
    const [headersClosed, bodyClosed] = await Promise.all([headers.closed, body.closed]);
    assert.ok(headersClosed >= HEADERS_DEADLINE_MS - 50 && headersClosed < HEADERS_DEADLINE_MS + LATE_MS, `slow headers closed after ${headersClosed} ms`);
    assert.ok(bodyClosed >= REQUEST_DEADLINE_MS - 50 && bodyClosed < REQUEST_DEADLINE_MS + LATE_MS, `a slow body closed after ${bodyClosed} ms`);
  });

  it('keeps at most 64 connections that no signed-in request used: one more closes the oldest, and a signed-in browser gets through', async () => {
    const cookie = await sessionCookieOf(web);
    const idle: Awaited<ReturnType<typeof rawConnection>>[] = [];
    try {
      for (let i = 0; i < MAX_UNSIGNED_CONNECTIONS + 8; i++) idle.push(await rawConnection(web.origin));
      await waitFor(() => idle.filter((c) => c.closedAfter() === null).length <= MAX_UNSIGNED_CONNECTIONS, { what: 'the oldest unsigned connections closed' });
      const open = idle.map((c) => c.closedAfter() === null);
      assert.ok(open.slice(open.indexOf(true)).every(Boolean), `the ones closed are the oldest: ${open.map(Number).join('')}`);
      assert.ok(open.slice(-MAX_UNSIGNED_CONNECTIONS + 8).every(Boolean), 'the newest stay');
      assert.equal((await httpRequest(web.origin, '/app.js', { headers: { cookie } })).status, 200);
    } finally {
      for (const c of idle) c.socket.destroy();
    }
  });
});
