// `corral web` is safe with no configuration: a real daemon, the real `corral web`, raw HTTP and
// WebSocket requests made as a hostile page or local process would make them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CORRAL_BIN, testEnv } from '../../harness/daemon.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';
import { httpRequest, pageSocket, sessionCookieOf, signIn, startWeb, type WebProcess } from '../../harness/web.ts';

describe('corral web: safe by default', () => {
  const session = useDaemon();
  let web: WebProcess;
  let cookie: string;
  let agent: string;

  before(async () => {
    agent = await session.fakeAgent(400, { name: 'writer' });
    web = await startWeb(session.daemon);
    cookie = await sessionCookieOf(web);
  });

  after(async () => {
    await web?.dispose();
  });

  it('listens on 127.0.0.1 and prints one URL whose token is in the fragment, never sent to the server', () => {
    assert.match(web.url, /^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/);
  });

  it('answers 401 to every request and upgrade without a session but the sign-in page, which holds nothing', async () => {
    const signInPage = await httpRequest(web.origin, '/');
    assert.equal(signInPage.status, 200, 'a first load logs no error in the console');
    assert.match(signInPage.body, /Signing in/);
    assert.doesNotMatch(signInPage.body, /writer|w1:p1|app\.js/, 'nothing of the daemon, nor the board page, before a session');
    for (const path of ['/app.js', '/app.css', '/sw.js', '/manifest.webmanifest', '/nothing']) {
      const reply = await httpRequest(web.origin, path);
      assert.equal(reply.status, 401, path);
      assert.doesNotMatch(reply.body, /writer|w1:p1/, 'nothing of the daemon leaks before a session');
    }
    await assert.rejects(pageSocket(web, { origin: web.origin }), { status: 401 });
    await assert.rejects(pageSocket(web, { origin: web.origin, cookie: 'corral_session=forged' }), { status: 401 });
  });

  it('opens the socket only to the cookie and its own key together: the cookie alone, which other ports get, is 401', async () => {
    const other = await signIn(web);
    await assert.rejects(pageSocket(web, { origin: web.origin, cookie }, null), { status: 401 }, 'the cookie alone');
    await assert.rejects(pageSocket(web, { origin: web.origin, cookie }, 'x'.repeat(32)), { status: 401 }, 'a forged key');
    await assert.rejects(pageSocket(web, { origin: web.origin, cookie }, other.key), { status: 401 }, "another session's key");
    await assert.rejects(pageSocket(web, { origin: web.origin }, other.key), { status: 401 }, 'the key without its cookie');
    assert.equal((await httpRequest(web.origin, '/session', { headers: { cookie } })).status, 401, 'the session check needs the key too');
    assert.equal((await httpRequest(web.origin, '/session', { headers: { cookie: other.cookie, 'x-corral-key': other.key } })).status, 200);
    const page = await pageSocket(web, { origin: web.origin, cookie: other.cookie }, other.key);
    assert.equal(page.ws.protocol, 'corral', 'the server answers with the page protocol, never the key');
    page.close();
  });

  it('trades only the right token for an HttpOnly, SameSite=Strict cookie', async () => {
    const wrong = await httpRequest(web.origin, '/session', { method: 'POST', headers: { origin: web.origin }, body: 'not-the-token' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers['set-cookie'], undefined);
    const right = await httpRequest(web.origin, '/session', { method: 'POST', headers: { origin: web.origin }, body: web.token });
    assert.equal(right.status, 200);
    assert.match(String(right.headers['set-cookie']), /^corral_session=[\w-]+; HttpOnly; SameSite=Strict; Path=\//);
    assert.match(JSON.parse(right.body).key, /^[\w-]{32}$/, 'the key comes in the body, for the page alone to keep');
    assert.equal((await httpRequest(web.origin, '/app.js', { headers: { cookie } })).status, 200);
  });

  it('refuses a foreign Host over HTTP and WebSocket (DNS rebinding)', async () => {
    const port = new URL(web.origin).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, 'localhost.evil.example']) {
      assert.equal((await httpRequest(web.origin, '/', { headers: { host, cookie } })).status, 421, host);
      assert.equal((await httpRequest(web.origin, '/session', { method: 'POST', headers: { host, origin: web.origin }, body: web.token })).status, 421, host);
      await assert.rejects(pageSocket(web, { host, origin: web.origin, cookie }), { status: 403 }, host);
    }
    assert.equal((await httpRequest(web.origin, '/', { headers: { host: `localhost:${port}`, cookie } })).status, 200, 'localhost names the same loopback server');
  });

  it('refuses a foreign or missing Origin on the token exchange and every upgrade', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${Number(new URL(web.origin).port) + 1}`]) {
      assert.equal((await httpRequest(web.origin, '/session', { method: 'POST', headers: { origin }, body: web.token })).status, 403, origin);
      await assert.rejects(pageSocket(web, { origin, cookie }), { status: 403 }, origin);
    }
    assert.equal((await httpRequest(web.origin, '/session', { method: 'POST', body: web.token })).status, 403, 'no Origin');
    await assert.rejects(pageSocket(web, { cookie }), { status: 403 }, 'no Origin');
  });

  it('lets one viewer type at a time: a second writer is refused while another holds the lease', async () => {
    const first = await pageSocket(web, { origin: web.origin, cookie });
    const second = await pageSocket(web, { origin: web.origin, cookie: await sessionCookieOf(web) });
    try {
      assert.equal((await first.call('terminal.input', { target: agent, data: 'x' })).error?.data.code, 'lease_required', 'viewing is read-only');
      const taken = await first.call('lease.take', { target: agent });
      assert.equal(taken.result.mine, true);
      await waitFor(() => second.notifications.some((n) => n.method === 'lease.changed' && n.params.holder !== null && !n.params.mine), { what: 'the second viewer told who holds the lease' });
      assert.equal((await second.call('lease.take', { target: agent })).error?.data.code, 'lease_held');
      assert.equal((await second.call('terminal.input', { target: agent, data: 'intruder' })).error?.data.code, 'lease_required');
      assert.equal((await second.call('agent.prompt', { target: agent, text: 'intruder' })).error?.data.code, 'lease_held');
      assert.deepEqual((await first.call('terminal.input', { target: agent, data: 'mine' })).result, { sent: 4 });
      await session.screenContains(agent, '❯ mine');
      assert.doesNotMatch((await session.call('pane.read', { target: agent })).text, /intruder/);
      // Closing the holder's socket gives the lease back.
      first.close();
      await waitFor(async () => (await second.call('lease.take', { target: agent })).result?.mine, { what: 'the lease given back on close' });
    } finally {
      first.close();
      second.close();
    }
  });

  it("refuses agent.clearQueue without the lease: a page cannot throw away what another queued", async () => {
    const busy = await session.fakeAgent(60_000, { name: 'busy' });
    await session.call('agent.prompt', { target: busy, text: 'work a minute' });
    await session.agentUntil(busy, (info) => info.state === 'working', 'the agent working');
    const first = await pageSocket(web, { origin: web.origin, cookie });
    const second = await pageSocket(web, { origin: web.origin, cookie: await sessionCookieOf(web) });
    try {
      assert.equal((await first.call('agent.prompt', { target: busy, text: 'queued by the first', queue: true })).result?.queued, true);
      assert.equal((await second.call('agent.clearQueue', { target: busy })).error?.data.code, 'lease_required', 'nobody holds the lease');
      assert.equal((await first.call('lease.take', { target: busy })).result?.mine, true);
      assert.equal((await second.call('agent.clearQueue', { target: busy })).error?.data.code, 'lease_required', 'another holds it');
      assert.deepEqual((await session.call('agent.queue', { target: busy })).prompts.map((entry: { text: string }) => entry.text), ['queued by the first']);
      assert.deepEqual((await first.call('agent.clearQueue', { target: busy })).result, { cleared: 1 }, 'the holder empties it');
    } finally {
      first.close();
      second.close();
    }
  });

  it('closes a socket that sends an oversized message, and keeps serving', async () => {
    const page = await pageSocket(web, { origin: web.origin, cookie });
    const closed = new Promise<number>((resolve) => page.ws.once('close', (code) => resolve(code)));
    page.ws.send('x'.repeat(300 * 1024));
    assert.equal(await closed, 1009);
    const again = await pageSocket(web, { origin: web.origin, cookie });
    assert.ok((await again.call('board.get')).result.cards.some((card: any) => card.info.id === agent));
    assert.equal((await again.call('no.such')).error.data.code, 'method_not_found');
    assert.equal((await again.call('agent.get', { target: agent, extra: 1 })).error.data.code, 'invalid_params');
    again.close();
  });

  it('never writes the token to its log or to the daemon log', () => {
    assert.ok(web.stderr().length > 0);
    assert.ok(!web.stderr().includes(web.token), 'corral web log');
    assert.ok(!session.daemon.stderr().includes(web.token), 'daemon log');
  });

  it('refuses to listen beyond loopback without TLS, and says how', () => {
    const run = spawnSync(process.execPath, [CORRAL_BIN, 'web', '--socket', session.daemon.socket, '--listen', '0.0.0.0', '--port', '0'], {
      encoding: 'utf8',
      env: { ...process.env, ...testEnv(session.daemon.dir) },
      timeout: 60_000,
    });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /not a loopback address.*--tls-cert FILE --tls-key FILE, or --tls-self-signed/s);
  });
});
