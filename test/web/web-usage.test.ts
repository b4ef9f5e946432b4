// What an agent spent, in a real browser (Debian's chromium): a fake Claude Code writes its transcript
// (test/fixtures/agents/fake-claude.mjs), the daemon reads it, and the card and the agent's page show
// the figures live, with a badge once a budget stands at 80% and at 100% (docs/usage.md), and each of
// the budget's inbox items shows a notification once.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';

/** Each notification the page shows (the same stand-in as test/web/web-inbox.test.ts). */
const RECORD_NOTIFICATIONS = `
  const record = (title, options) => {
    const shown = JSON.parse(localStorage.getItem('test.shown') ?? '[]');
    shown.push({ title, body: options?.body ?? '' });
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

/** What fake-claude.mjs writes per turn: 1000 input, 200 output, 300 cache read, 50 cache write. */
const TURN_TOKENS = 1550;

describe('usage and budgets in a real browser', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  const dir = makeTempDir();
  let daemon: DaemonProcess;
  let web: WebProcess;
  let browser: Browser;
  let context: BrowserContext;
  let call: (method: string, params?: unknown) => Promise<any>;

  before(async () => {
    // One turn is 82% of the budget, two are 163%.
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    writeFileSync(join(dir, 'config', 'corral', 'config.toml'), `[[budgets]]\nname = "tiny"\nscope = "agent"\nperiod = "day"\ntokens = ${TURN_TOKENS + 350}\n`);
    daemon = await startDaemon({ dir });
    call = (await connectCalling(daemon)).call;
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

  const card = (page: Page, id: string) =>
    page.$eval(`#board .card[data-id="${id}"]`, (node) => ({ meta: node.querySelector('.card-meta')?.textContent ?? '', budget: node.querySelector('.budget')?.textContent ?? null })).catch(() => null);
  const shown = (page: Page): Promise<{ title: string; body: string }[]> => page.evaluate(() => JSON.parse(localStorage.getItem('test.shown') ?? '[]'));
  const turn = async (id: string, input: number) => {
    await call('agent.prompt', { target: id, text: 'go' });
    await waitFor(async () => (await call('agent.get', { target: id })).usage?.tokens?.input === input, { what: `usage of ${input} input tokens`, timeoutMs: 20_000 });
  };

  it('shows the figures on the card and the page, a badge at 80% and at 100%, and a notification for each budget item', async () => {
    const transcript = join(dir, 'transcript.jsonl');
    const pane = await call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'spender', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '200', FAKE_HOOKS: '1', FAKE_TRANSCRIPT: transcript } });
    await waitFor(async () => (await call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'the agent idle', timeoutMs: 60_000 });
    const page = await context.newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    await page.evaluate(() => localStorage.removeItem('test.shown'));

    await turn(pane.id, 1000);
    // The figures arrive with agent.usageChanged, which carries no new state: the card follows it live.
    await waitFor(async () => /1\.6k tokens · \$0\.\d+/.test((await card(page, pane.id))?.meta ?? ''), { what: 'the usage on the card', timeoutMs: 15_000 });
    await waitFor(async () => (await card(page, pane.id))?.budget === 'budget 80%', { what: 'the 80% badge', timeoutMs: 15_000 });
    // The badge sits on the meta line beside the figures: on the head, with the reminder and the state, it cut the name to "sp…".
    assert.deepEqual(await page.$eval(`#board .card[data-id="${pane.id}"] .card-name`, (node) => [node.textContent, node.scrollWidth <= node.clientWidth]), ['spender', true], 'the name shown whole');
    await waitFor(async () => (await shown(page)).some((n) => /spender spent 80% of a budget/.test(n.title)), { what: 'the notification of the 80% item', timeoutMs: 15_000 });

    await turn(pane.id, 2000);
    await waitFor(async () => (await card(page, pane.id))?.budget === 'budget 100%', { what: 'the 100% badge', timeoutMs: 15_000 });
    await waitFor(async () => (await shown(page)).some((n) => /spender spent 100% of a budget/.test(n.title)), { what: 'the notification of the 100% item', timeoutMs: 15_000 });
    const told = (await shown(page)).filter((n) => /of a budget/.test(n.title));
    assert.equal(told.length, 2, JSON.stringify(told));
    assert.match(told[1]!.body, /budget tiny: 100% spent/);

    await page.click(`#board .card[data-id="${pane.id}"]`);
    await page.waitForFunction(() => /budget 100%/.test(document.querySelector('.agent-head .budget')?.textContent ?? ''), null, { timeout: 15_000 });
    assert.match(await page.$eval('.agent-head .budget', (node) => (node as HTMLElement).title), /budget tiny: \d+ of 1900 tokens this day; prompts wait until it turns/);
    assert.match(await page.$eval('.agent-head .card-meta', (node) => node.textContent ?? ''), /3\.1k tokens/);
    await page.goBack();
    await page.waitForSelector(`#board .card[data-id="${pane.id}"] .budget`, { timeout: 15_000 });
    await page.close();
  });
});
