// corral web and the attention inbox in a real browser (Debian's chromium): cards say which agents
// need the person, a reminder dismissed on one page goes from every page, looking at a blocked one leaves its reminder, looking at a done one sees it, a notification fires once per item (not again
// after a reload or a daemon restart), and a card's tail shows what the agent does, not its composer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';
import { killDaemon } from '../helpers/restart.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';

/**
 * Every notification the page shows, kept in localStorage so that it outlives a reload. Plain text:
 * a function would be compiled by the test's loader with helpers the page does not have.
 */
const RECORD_NOTIFICATIONS = `
  const record = (title, options) => {
    const shown = JSON.parse(localStorage.getItem('test.shown') ?? '[]');
    shown.push({ title, tag: options?.tag ?? '' });
    localStorage.setItem('test.shown', JSON.stringify(shown));
  };
  ServiceWorkerRegistration.prototype.showNotification = async function (title, options) { record(title, options); };
  const Original = window.Notification;
  window.Notification = class extends EventTarget {
    static get permission() { return Original.permission; }
    static requestPermission() { return Original.requestPermission(); }
    constructor(title, options) { super(); record(title, options); }
  };
`;

const shown = async (page: Page): Promise<{ title: string; tag: string }[]> => page.evaluate(() => JSON.parse(localStorage.getItem('test.shown') ?? '[]'));
const card = (page: Page, id: string) => page.$eval(`#board .card[data-id="${id}"]`, (node) => ({ state: (node as HTMLElement).dataset.state, inbox: (node as HTMLElement).dataset.inbox ?? null, tail: node.querySelector('.card-tail')?.textContent ?? '' })).catch(() => null);

describe('corral web and the attention inbox in a real browser', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  const dir = makeTempDir();
  let daemon: DaemonProcess;
  let web: WebProcess;
  let browser: Browser;
  let context: BrowserContext;
  let call: (method: string, params?: unknown) => Promise<any>;

  const connectTo = async (to: DaemonProcess) => {
    const connection = await connectCalling(to);
    call = connection.call;
    return connection;
  };
  const spawn = async (name: string): Promise<string> => {
    const pane = await call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name, cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '60000' } });
    await waitFor(async () => (await call('agent.get', { target: pane.id })).rawState === 'idle', { what: `${name} idle`, timeoutMs: 30_000 });
    return pane.id;
  };
  const blockAndWaitItem = async (id: string) => {
    await call('pane.send', { target: id, text: 'perm', keys: ['Enter'] });
    let item: any;
    // The blocked one: a declined prompt leaves the agent done, whose item may be listed before it.
    await waitFor(async () => (item = (await call('inbox.list', {})).items.find((entry: any) => entry.pane.id === id && entry.state === 'blocked')) !== undefined, { what: `${id} blocked in the inbox`, timeoutMs: 20_000 });
    return item;
  };
  const signedIn = async (): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    return page;
  };

  before(async () => {
    daemon = await startDaemon({ dir });
    await connectTo(daemon);
    web = await startWeb(daemon);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['notifications'], { origin: web.origin });
    await context.addInitScript({ content: RECORD_NOTIFICATIONS });
  });

  after(async () => {
    await browser?.close();
    await web?.dispose();
    await daemon?.dispose();
  });

  it("shows the working line in a card's tail, never the composer box, and the dialog once blocked", async () => {
    const id = await spawn('tailed');
    const page = await signedIn();
    await call('pane.send', { target: id, text: 'a long task', keys: ['Enter'] });
    // The line as the card shows it: cut to the card's width, its end may be an ellipsis.
    await waitFor(async () => /✽ Tempering… \(\d+s · esc/.test((await card(page, id))?.tail ?? ''), { what: 'the working line in the tail', timeoutMs: 15_000 });
    const working = (await card(page, id))!.tail;
    assert.match(working, /> a long task/);
    assert.doesNotMatch(working, /❯|for shortcuts|──/, 'no composer box in the tail');
    await call('pane.send', { target: id, keys: ['Escape'] });
    await waitFor(async () => (await call('agent.get', { target: id })).rawState === 'idle', { what: 'the turn interrupted', timeoutMs: 15_000 });
    await call('pane.send', { target: id, text: 'perm', keys: ['Enter'] });
    await waitFor(async () => (await card(page, id))?.state === 'blocked', { what: 'the card blocked', timeoutMs: 15_000 });
    await waitFor(async () => /Esc to cancel/.test((await card(page, id))?.tail ?? ''), { what: "the dialog's last lines in the tail", timeoutMs: 10_000 });
    await page.close();
  });

  it('counts blocked agents while blocked and done ones until seen; looking at a blocked one leaves its reminder on every page', async () => {
    const id = await spawn('needy');
    const page = await signedIn();
    const other = await signedIn(); // another device's page
    const item = await blockAndWaitItem(id);
    await waitFor(async () => (await card(page, id))?.inbox === String(item.id), { what: 'the card marked with its inbox item', timeoutMs: 10_000 });
    const count = (on: Page) => on.$eval('#needs', (node) => Number((node as HTMLElement).dataset.count));
    /** The one meaning of "needs you": blocked, or done and not yet seen (src/protocol/states.ts). */
    const needing = async () => (await call('agent.list', {})).agents.filter((info: any) => info.state === 'blocked' || info.state === 'done').length;
    const expected = await needing();
    assert.ok(expected >= 1);
    await waitFor(async () => (await count(page)) === expected, { what: `${expected} needing you in the bar`, timeoutMs: 10_000 });
    await waitFor(async () => (await card(other, id))?.inbox === String(item.id), { what: "the other page's mark", timeoutMs: 10_000 });
    // Dismissed on purpose on one page (its ✕): one act every device sees, the mark gone from the other page
    // too; the count stays (still blocked), and the tap opened no card.
    await page.click(`#board .card[data-id="${id}"] button[data-dismiss="${item.id}"]`);
    await waitFor(async () => (await card(page, id))?.inbox === null && (await card(other, id))?.inbox === null, { what: 'the mark gone from both pages', timeoutMs: 10_000 });
    assert.equal(new URL(page.url()).hash, '', 'the dismiss button opens no card');
    assert.ok(!(await call('inbox.list', {})).items.some((entry: any) => entry.id === item.id), 'the item left the inbox');
    assert.equal((await call('agent.get', { target: id })).state, 'blocked', 'dismissing answers nothing');
    assert.deepEqual([await count(page), await count(other)], [expected, expected], 'a blocked agent needs you while it is blocked');
    // Blocked anew, then its page opened: looking is no answer.
    await call('pane.send', { target: id, keys: ['Escape'] });
    await waitFor(async () => (await call('agent.get', { target: id })).state !== 'blocked', { what: 'the permission declined', timeoutMs: 15_000 });
    const again = await blockAndWaitItem(id);
    assert.ok(again.id > item.id);
    await waitFor(async () => (await card(other, id))?.inbox === String(again.id), { what: "the other page's mark", timeoutMs: 10_000 });
    await page.click(`#board .card[data-id="${id}"]`);
    // The agent's page draws its terminal (after it drew the card it would have focused): its dialog on screen.
    await page.waitForFunction(() => /Esc to cancel/.test(document.querySelector('.xterm-rows')?.textContent ?? ''), null, { timeout: 15_000 });
    assert.ok((await call('inbox.list', {})).items.some((entry: any) => entry.id === again.id), 'the item stays in the inbox');
    assert.equal((await card(other, id))?.inbox, String(again.id), 'the other page keeps its reminder');
    assert.equal((await call('agent.get', { target: id })).state, 'blocked');
    // The agent's page offers to dismiss it on purpose: gone from the other page too, the agent still blocked.
    await page.click('.agent-reminder button');
    await waitFor(async () => (await card(other, id))?.inbox === null, { what: "the other page's mark gone after the agent page's dismiss", timeoutMs: 10_000 });
    await page.waitForSelector('.agent-reminder', { state: 'detached', timeout: 10_000 });
    assert.equal((await call('agent.get', { target: id })).state, 'blocked');
    // Declined while its page is open: done, and seen at once by the page that shows it.
    await call('pane.send', { target: id, keys: ['Escape'] });
    await waitFor(async () => (await call('agent.get', { target: id })).state === 'idle', { what: 'the done turn seen by its open page', timeoutMs: 15_000 });
    await waitFor(async () => (await count(other)) === (await needing()), { what: 'the count following the states', timeoutMs: 10_000 });
    await page.close();
    await other.close();
  });

  it('notifies once per item: not again after a reload, nor after the daemon restarts', async () => {
    const first = await spawn('first');
    const second = await spawn('second');
    const third = await spawn('third');
    const page = await signedIn();
    // What this test's own page shows: the test before it had two pages open at once, and two tabs may
    // each show an item (the browser keeps one notification per tag), which is not what is judged here.
    await page.evaluate(() => localStorage.removeItem('test.shown'));
    const tags = async () => (await shown(page)).map((entry) => entry.tag);
    const item = await blockAndWaitItem(first);
    await waitFor(async () => (await tags()).includes(`corral-inbox-${item.id}`), { what: 'the first notification', timeoutMs: 10_000 });
    assert.deepEqual((await shown(page)).find((entry) => entry.tag === `corral-inbox-${item.id}`)?.title, 'first needs you');

    await page.reload();
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    const other = await blockAndWaitItem(second);
    await waitFor(async () => (await tags()).includes(`corral-inbox-${other.id}`), { what: "the second agent's notification after the reload", timeoutMs: 10_000 });

    const beforeKill = (await call('inbox.list', {})).items;
    await killDaemon(daemon);
    daemon = await startDaemon({ dir, socket: daemon.socket });
    await connectTo(daemon);
    const afterRestart = (await call('inbox.list', {})).items;
    assert.ok(afterRestart.some((entry: any) => entry.id === item.id), `the item outlived the daemon: ${JSON.stringify(beforeKill.map((e: any) => [e.id, e.pane.id]))} then ${JSON.stringify(afterRestart.map((e: any) => [e.id, e.pane.id]))}; ${daemon.stderr?.() ?? ''}`);
    const last = await blockAndWaitItem(third);
    await waitFor(async () => (await tags()).includes(`corral-inbox-${last.id}`), { what: "the third agent's notification after the restart", timeoutMs: 20_000 });
    const counts = new Map<string, number>();
    for (const tag of await tags()) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    assert.deepEqual([...counts.values()].filter((n) => n > 1), [], `each item once: ${[...counts.keys()]}`);
    await page.close();
  });
});
