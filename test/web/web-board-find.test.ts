// Finding an agent among many on `corral web`'s board, in a real browser (Debian's chromium through
// playwright-core), against a real daemon with fake agents in three workspaces: the filter box, the
// workspace pills, the keys, a first load's console, and the light theme.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FAKE_CLAUDE, useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';

/** Where the screenshots go: docs/images/ with CORRAL_UPDATE_SCREENSHOTS=1, else a temporary folder. */
const SHOTS = process.env.CORRAL_UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../docs/images/', import.meta.url)) : `${mkdtempSync(join(tmpdir(), 'corral-web-find-'))}/`;

/** The agents, by name, and the workspace each runs in. */
const AGENTS: [string, string][] = [
  ['alpha', 'default'],
  ['beta', 'default'],
  ['api-server', 'api'],
  ['api-worker', 'api'],
  ['docs-site', 'docs'],
];

/** The names of the board's cards, in the order the page shows them. */
function shownNames(page: Page): Promise<string[]> {
  return page.$$eval('#board .card', (cards) => cards.map((card) => card.querySelector('.card-name')!.textContent!));
}

async function sameSet(page: Page, names: string[], what: string): Promise<void> {
  const want = JSON.stringify([...names].sort());
  await waitFor(async () => JSON.stringify((await shownNames(page)).sort()) === want, { what, timeoutMs: 10_000 });
}

describe('the board finds an agent among many in a real browser', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)` }, () => {
  const session = useDaemon();
  let web: WebProcess;
  let browser: Browser;
  const ids = new Map<string, string>();

  before(async () => {
    for (const [name, workspace] of AGENTS) {
      const pane = await session.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], cwd: session.daemon.dir, name, workspace, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '60000' } });
      ids.set(name, pane.id);
    }
    for (const id of ids.values()) await session.agentUntil(id, (info) => info.agent === 'claude' && info.rawState === 'idle', 'the idle prompt box');
    // api-worker asks for a permission: one card blocked, first on the board.
    await session.call('pane.send', { target: ids.get('api-worker'), text: 'perm', keys: ['Enter'] });
    await session.agentUntil(ids.get('api-worker')!, (info) => info.state === 'blocked', 'api-worker blocked');
    web = await startWeb(session.daemon);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await web?.dispose();
  });

  async function board(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    await sameSet(page, AGENTS.map(([name]) => name), 'every card');
    return page;
  }

  it("logs its board's figures, not a count of pages, and a first load logs nothing in the browser's console", async () => {
    assert.match(web.stderr(), /board of 5 agents at http:\/\/127\.0\.0\.1:\d+ \(page code \d+ KiB gzipped\)/);
    assert.doesNotMatch(web.stderr(), /serving \d+ pages/);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') logged.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => logged.push(`uncaught: ${error.message}`));
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    await sameSet(page, AGENTS.map(([name]) => name), 'every card');
    assert.deepEqual(logged, []);
    await context.close();
  });

  it('filters the cards by name, agent, workspace, host and state as typed: `/` focuses the box, Esc clears it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await board(context);
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'filter');
    await page.keyboard.type('api');
    await sameSet(page, ['api-server', 'api-worker'], 'the api cards');
    assert.equal(await page.textContent('.filter-count'), '2 of 5');
    await page.fill('#filter', 'blocked');
    await sameSet(page, ['api-worker'], 'the blocked card');
    await page.fill('#filter', 'docs');
    await sameSet(page, ['docs-site'], 'the docs workspace');
    await page.fill('#filter', 'CLAUDE idle');
    await sameSet(page, ['alpha', 'beta', 'api-server', 'docs-site'], 'every word, any case');
    await page.fill('#filter', 'nothing-like-this');
    await sameSet(page, [], 'no card');
    assert.match((await page.textContent('#board')) ?? '', /No agent matches the filter/);
    await page.keyboard.press('Escape');
    await sameSet(page, AGENTS.map(([name]) => name), 'every card again');
    assert.equal(await page.inputValue('#filter'), '');
    assert.equal(await page.textContent('.filter-count'), '');
    await context.close();
  });

  it('shows one workspace when its pill is clicked, pressed until clicked again', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
    const page = await board(context);
    const pill = (workspace: string) => page.locator(`.rollup[data-workspace="${workspace}"]`);
    assert.equal(await pill('api').getAttribute('aria-pressed'), 'false');
    await pill('api').click();
    await sameSet(page, ['api-server', 'api-worker'], 'the api workspace');
    assert.equal(await pill('api').getAttribute('aria-pressed'), 'true');
    await page.screenshot({ path: `${SHOTS}web-board-find.png` });
    const [pressed, other] = await Promise.all([pill('api').evaluate((node) => getComputedStyle(node).outlineStyle), pill('docs').evaluate((node) => getComputedStyle(node).outlineStyle)]);
    assert.notEqual(pressed, other, 'the pressed pill looks pressed');
    // The filter box narrows within it.
    await page.fill('#filter', 'server');
    await sameSet(page, ['api-server'], 'server within api');
    await page.fill('#filter', '');
    await pill('docs').click();
    await sameSet(page, ['docs-site'], 'another pill takes over');
    assert.equal(await pill('api').getAttribute('aria-pressed'), 'false');
    await pill('docs').click();
    await sameSet(page, AGENTS.map(([name]) => name), 'released: every workspace');
    await context.close();
  });

  it('moves a visible selection with j and k, opens it with Enter, and lists the keys on ?', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
    const page = await board(context);
    const order = await shownNames(page);
    const selected = () => page.$$eval('#board .card[data-selected]', (cards) => cards.map((card) => card.querySelector('.card-name')!.textContent!));
    await page.keyboard.press('j');
    assert.deepEqual(await selected(), [order[0]]);
    const outline = await page.locator('#board .card[data-selected]').evaluate((node) => getComputedStyle(node).outlineStyle);
    assert.notEqual(outline, 'none', 'the selection shows');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    assert.deepEqual(await selected(), [order[2]]);
    await page.keyboard.press('k');
    assert.deepEqual(await selected(), [order[1]]);
    // Filtered out, the selection starts again from the first card shown.
    await page.keyboard.press('/');
    await page.keyboard.type('docs');
    await sameSet(page, ['docs-site'], 'docs alone');
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await selected(), ['docs-site']);
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => location.hash === `#/agent/${encodeURIComponent(id)}`, ids.get('docs-site')!);
    await page.waitForSelector('.xterm-screen');
    await page.goBack();
    await sameSet(page, ['docs-site'], 'the filter kept back on the board');
    await page.keyboard.press('Escape');
    await sameSet(page, AGENTS.map(([name]) => name), 'every card');
    // Enter in the filter box opens the first match.
    await page.keyboard.press('/');
    await page.keyboard.type('beta');
    await sameSet(page, ['beta'], 'beta alone');
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => location.hash === `#/agent/${encodeURIComponent(id)}`, ids.get('beta')!);
    await page.goBack();
    await page.click('#filter');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'filter', 'a second Esc leaves the box');
    assert.equal(await page.isVisible('#keys-help'), false);
    await page.keyboard.press('?');
    assert.equal(await page.isVisible('#keys-help'), true);
    assert.match((await page.textContent('#keys-help')) ?? '', /j \/ k.*Enter/s);
    await page.keyboard.press('j');
    await page.screenshot({ path: `${SHOTS}web-board-keys.png` });
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#keys-help'), false);
    await page.click('.keys-button');
    assert.equal(await page.isVisible('#keys-help'), true, 'the ? button shows them too');
    await context.close();
  });

  it('paints light when the system asks for it (prefers-color-scheme: light), dark otherwise', async () => {
    /** The relative luminance (0 black, 1 white) of a computed colour: rgb(r, g, b). */
    const luminance = (color: string) => {
      const [r, g, b] = color.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((part) => Number(part) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const colours = (page: Page) =>
      page.evaluate(() => ({
        body: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        card: getComputedStyle(document.querySelector('#board .card')!).backgroundColor,
        bar: getComputedStyle(document.querySelector('#bar')!).backgroundColor,
        filter: getComputedStyle(document.querySelector('#filter')!).backgroundColor,
        name: getComputedStyle(document.querySelector('.card-name')!).color,
      }));
    const light = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    const lightPage = await board(light);
    const lit = await colours(lightPage);
    for (const part of ['body', 'card', 'bar', 'filter'] as const) assert.ok(luminance(lit[part]) > 0.8, `light ${part}: ${lit[part]}`);
    for (const part of ['text', 'name'] as const) assert.ok(luminance(lit[part]) < 0.05, `dark ${part} on light: ${lit[part]}`);
    await lightPage.screenshot({ path: `${SHOTS}web-board-light.png` });
    await light.close();
    const dark = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const dim = await colours(await board(dark));
    for (const part of ['body', 'card', 'bar', 'filter'] as const) assert.ok(luminance(dim[part]) < 0.05, `dark ${part}: ${dim[part]}`);
    assert.ok(luminance(dim.text) > 0.7, `light text on dark: ${dim.text}`);
    await dark.close();
  });

  it('fits a phone: the filter box and the pills in one column above the cards, a pill answering a tap', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await board(context);
    const box = (await page.locator('#filter').boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.width > 250, `the filter box fits the width: ${JSON.stringify(box)}`);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= 390, `nothing sticks out sideways: ${scrollWidth}`);
    await page.tap('.rollup[data-workspace="api"]');
    await sameSet(page, ['api-server', 'api-worker'], 'the api workspace on a tap');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}web-phone-board-find.png` });
    await context.close();
  });
});
