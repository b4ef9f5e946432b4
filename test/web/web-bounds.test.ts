// corral web's bounds (docs/web.md, "Bounds"): sessions and pages are capped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';
import { httpRequest, pageSocket, sessionCookieOf, startWeb, type PageClient, type WebProcess } from '../../harness/web.ts';

/** The web server's caps (src/web/sessions.ts MAX_SESSIONS, src/web/web-server.ts MAX_PAGE_SOCKETS). */
const MAX_SESSIONS = 64;
const MAX_PAGE_SOCKETS = 32;

describe('corral web: bounds', () => {
  const session = useDaemon();
  let web: WebProcess;

  before(async () => {
    web = await startWeb(session.daemon);
  });

  after(async () => {
    await web?.dispose();
  });

  it('keeps at most 64 sessions: the oldest is forgotten', async () => {
    const cookies: string[] = [];
    for (let i = 0; i <= MAX_SESSIONS; i++) cookies.push(await sessionCookieOf(web));
    assert.equal((await httpRequest(web.origin, '/', { headers: { cookie: cookies[0]! } })).status, 401, 'the oldest session is gone');
    assert.equal((await httpRequest(web.origin, '/', { headers: { cookie: cookies[1]! } })).status, 200);
    assert.equal((await httpRequest(web.origin, '/', { headers: { cookie: cookies.at(-1)! } })).status, 200);
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
});
