// A `corral web` session is bound to its page's origin, told apart from the others, and revoked from
// the CLI: a real daemon, the real `corral web`, Debian's chromium, a server on another loopback port
// run as another user, and the real `corral web sessions`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { testEnv } from '../../harness/daemon.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, httpRequest, launchChromium, pageSocket, signIn, startWeb, type WebProcess } from '../../harness/web.ts';
import { runCli } from '../helpers/cli.ts';
import { useDaemon } from '../helpers/session.ts';

const THIEF = fileURLToPath(new URL('../fixtures/cookie-thief.mjs', import.meta.url));
/** nobody: the other user the thief runs as when the tests run as root. */
const OTHER_UID = 65534;
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

async function signedIn(context: BrowserContext, web: WebProcess): Promise<Page> {
  const page = await context.newPage();
  await page.goto(web.url);
  await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
  return page;
}

describe('corral web sessions', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)` }, () => {
  const session = useDaemon();
  let web: WebProcess;
  let browser: Browser;
  let shell: string;
  const folder = mkdtempSync(join(tmpdir(), 'corral-web-sessions-'));
  const sessions = (...args: string[]) => runCli(['--socket', session.daemon.socket, 'web', 'sessions', '--port', new URL(web.origin).port, ...args], { env: { ...process.env, ...testEnv(session.daemon.dir) } });

  before(async () => {
    shell = (await session.call('pane.spawn', { command: '/bin/sh', args: [], cwd: folder, name: 'shell' })).id;
    web = await startWeb(session.daemon);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await web?.dispose();
  });

  it('gives a server on another loopback port, run by another user, the cookie and nothing else: 401, and nothing typed', async () => {
    const context = await browser.newContext();
    const page = await signedIn(context, web);
    const file = join(folder, 'stolen');
    const asRoot = process.getuid?.() === 0;
    const thief = spawn(process.execPath, [THIEF, web.origin, shell, file], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH }, ...(asRoot ? { uid: OTHER_UID, gid: OTHER_UID } : {}) });
    let out = '';
    thief.stdout!.setEncoding('utf8').on('data', (text: string) => (out += text));
    try {
      await waitFor(() => /listening (\d+)/.test(out), { what: 'the thief listening' });
      const port = /listening (\d+)/.exec(out)![1]!;
      // The person opens the other server's page in the same browser.
      const other = await context.newPage();
      await other.goto(`http://127.0.0.1:${port}/`);
      await waitFor(() => out.includes('{'), { what: "the thief's attempts" });
      const attempts = JSON.parse(out.slice(out.indexOf('{')));
      assert.equal(attempts.cookie, true, 'the browser sends the session cookie to another port (RFC 6265 section 8.5)');
      assert.equal(attempts.cookieAlone, 401, 'the cookie alone, with our Origin and Host');
      assert.equal(attempts.pageProtocol, 401, 'the cookie and the page protocol');
      assert.equal(attempts.guessedKey, 401, 'the cookie and a guessed key');
      assert.equal(attempts.sessionCheck, 401);
      assert.equal(attempts.typed, undefined, 'no socket opened');
      assert.equal(await page.evaluate(() => (window as any).corral.connected()), true, "the person's own page still works");
      // The same command from the person's own session does reach the shell: the file would be written.
      const signed = await signIn(web);
      const mine = await pageSocket(web, { origin: web.origin, cookie: signed.cookie });
      assert.equal((await mine.call('lease.take', { target: shell })).result?.mine, true);
      const written = join(folder, 'mine');
      await mine.call('terminal.input', { target: shell, data: `id -u > ${written}\r` });
      await waitFor(() => existsSync(written) && readFileSync(written, 'utf8').trim() !== '', { what: 'the command typed by the signed-in page' });
      mine.close();
      assert.equal(existsSync(file), false, 'the thief typed nothing');
      assert.doesNotMatch((await session.call('pane.read', { target: shell })).text, /stolen/);
    } finally {
      thief.kill();
      await context.close();
    }
  });

  it('keeps a browser signed in across a reload and in a new tab of the same address, without the token', async () => {
    const context = await browser.newContext();
    try {
      const page = await signedIn(context, web);
      assert.equal(page.url(), `${web.origin}/`, 'the token is out of the address bar');
      await page.reload();
      await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
      const tab = await context.newPage();
      await tab.goto(`${web.origin}/`);
      await tab.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    } finally {
      await context.close();
    }
  });

  it('labels each session by its browser and sign-in time, and `corral web sessions` lists them', async () => {
    const phone = await signIn(web, ANDROID_CHROME);
    const laptop = await signIn(web, FIREFOX);
    assert.match(phone.label, /^#\d+ Chrome 131 on Android, signed in \d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.match(laptop.label, /^#\d+ Firefox 133 on Linux, signed in /);
    const first = await pageSocket(web, { origin: web.origin, cookie: phone.cookie });
    const second = await pageSocket(web, { origin: web.origin, cookie: laptop.cookie });
    try {
      await first.call('lease.take', { target: shell });
      await waitFor(() => second.notifications.some((n) => n.method === 'lease.changed' && n.params.holder === phone.label), { what: 'the lease shown with the holder\'s label' });
      const listed = await sessions('--json');
      assert.equal(listed.code, 0, listed.stderr);
      const rows = JSON.parse(listed.stdout).sessions as { number: number; label: string; userAgent: string; pages: number }[];
      const row = rows.find((r) => r.label === phone.label);
      assert.ok(row, listed.stdout);
      assert.equal(row.userAgent, ANDROID_CHROME);
      assert.equal(row.pages, 1);
      assert.ok(!listed.stdout.includes(phone.key) && !listed.stdout.includes(phone.cookie.split('=')[1]!), 'no secret is listed');
      const text = await sessions();
      assert.match(text.stdout, /^SESSION\s+SIGNED IN\s+PAGES\s+USER AGENT$/m);
      assert.match(text.stdout, new RegExp(`^#${row.number}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ\\s+1\\s+Mozilla/5\\.0 \\(Linux; Android 14`, 'm'));
    } finally {
      first.close();
      second.close();
    }
  });

  it('revokes one session: its pages close at once and its cookie and key open nothing more', async () => {
    const gone = await signIn(web, FIREFOX);
    const kept = await signIn(web, ANDROID_CHROME);
    const page = await pageSocket(web, { origin: web.origin, cookie: gone.cookie });
    const other = await pageSocket(web, { origin: web.origin, cookie: kept.cookie });
    const closed = new Promise<number>((resolve) => page.ws.once('close', (code) => resolve(code)));
    const number = /^#(\d+)/.exec(gone.label)![1]!;
    const revoked = await sessions('revoke', `#${number}`, '--json');
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual(JSON.parse(revoked.stdout).revoked.map((r: { label: string }) => r.label), [gone.label]);
    assert.equal(await closed, 4401, 'closed as signed out');
    await assert.rejects(pageSocket(web, { origin: web.origin, cookie: gone.cookie }), { status: 401 });
    assert.equal((await httpRequest(web.origin, '/session', { headers: { cookie: gone.cookie, 'x-corral-key': gone.key } })).status, 401);
    assert.ok((await other.call('board.get')).result, 'another session goes on');
    other.close();
    const missing = await sessions('revoke', '99999');
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(missing.stderr, /no session #99999/);
  });

  it('shows a revoked browser how to sign in again, and `revoke all` signs every one out', async () => {
    const context = await browser.newContext();
    const page = await signedIn(context, web);
    try {
      const all = await sessions('revoke', 'all', '--json');
      assert.equal(all.code, 0, all.stderr);
      assert.ok(JSON.parse(all.stdout).revoked.some((r: { label: string }) => /Headless Chrome/.test(r.label)));
      await page.waitForSelector('#signed-out', { timeout: 20_000 });
      assert.match(await page.textContent('#signed-out') ?? '', /Open the URL that `corral web` printed/);
      assert.equal(await page.evaluate(() => localStorage.getItem('corral.key')), null, 'the dead key is forgotten');
      assert.deepEqual(JSON.parse((await sessions('--json')).stdout).sessions, []);
      // The printed URL signs it in again.
      await page.goto(web.url);
      await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    } finally {
      await context.close();
    }
  });

  it('answers `corral web sessions` on a socket only its user may open', () => {
    const path = `${session.daemon.socket}.web-${new URL(web.origin).port}`;
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('says when no corral web answers on that port', async () => {
    const result = await runCli(['--socket', session.daemon.socket, 'web', 'sessions', '--port', '1'], { env: { ...process.env, ...testEnv(session.daemon.dir) } });
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stderr, /no corral web answers at .*web-1: is it running/);
  });
});
