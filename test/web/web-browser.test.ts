// `corral web` in a real browser: Debian's chromium driven by playwright-core, against a real daemon
// with scripted fake agents (test/fixtures/agents/fake-claude.mjs).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';

/** Where the screenshots go: docs/images/ (which the README shows) with CORRAL_UPDATE_SCREENSHOTS=1, else a temporary folder; taken in the dark theme, the page's default (playwright emulates a light system unless told). */
const SHOTS = process.env.CORRAL_UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../docs/images/', import.meta.url)) : `${mkdtempSync(join(tmpdir(), 'corral-web-shots-'))}/`;

async function signedIn(context: BrowserContext, web: WebProcess): Promise<Page> {
  const page = await context.newPage();
  await page.goto(web.url);
  await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
  return page;
}

/** The board's card ids and states, in the order the page shows them. */
function boardOrder(page: Page): Promise<{ id: string; state: string }[]> {
  return page.$$eval('#board .card', (cards) => cards.map((card) => ({ id: (card as HTMLElement).dataset.id!, state: (card as HTMLElement).dataset.state! })));
}

describe('corral web in a real browser', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)` }, () => {
  const session = useDaemon();
  let web: WebProcess;
  let browser: Browser;
  const agents: string[] = [];

  before(async () => {
    for (const name of ['alpha', 'beta', 'gamma']) agents.push(await session.fakeAgent(60_000, { name }));
    web = await startWeb(session.daemon);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await web?.dispose();
  });

  it('takes the token out of the address bar and shows every agent, reordered live when one blocks', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } });
    const page = await signedIn(context, web);
    assert.equal(new URL(page.url()).hash, '', 'the token left the address bar');
    await waitFor(async () => (await boardOrder(page)).length === 3, { what: 'three cards', timeoutMs: 10_000 });
    assert.deepEqual(new Set((await boardOrder(page)).map((card) => card.state)), new Set(['idle']));
    // gamma asks for a permission: it moves to the top of the board, with no reload.
    await session.call('pane.send', { target: agents[2], text: 'perm', keys: ['Enter'] });
    await page.waitForFunction((id) => (document.querySelector('#board .card') as HTMLElement | null)?.dataset.id === id && (document.querySelector('#board .card') as HTMLElement).dataset.state === 'blocked', agents[2], { timeout: 15_000 });
    assert.match((await page.textContent('#needs')) ?? '', /1 needs you/);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}web-board.png` });
    // No history entry keeps the token: the one before the board is the tab's first, blank page.
    await page.goBack();
    assert.doesNotMatch(page.url(), /token/);
    await context.close();
  });

  it("shows an agent's live terminal as `corral pane read` does, and a prompt typed in the page reaches the agent", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedIn(context, web);
    await page.click(`#board .card[data-id="${agents[0]}"]`);
    await page.waitForSelector('.xterm-screen');
    const screen = async () => (await session.call('pane.read', { target: agents[0] })).text.split('\n').map((line: string) => line.trimEnd()).join('\n').trimEnd();
    const shown = async () => ((await page.evaluate(() => (window as any).corral.terminalText())) as string | null)?.split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();
    await waitFor(async () => (await shown()) === (await screen()), { what: 'the terminal showing the pane screen', timeoutMs: 10_000 });
    await page.fill('.composer textarea', 'hello from the page');
    await page.click('.composer button[type=submit]');
    await session.agentUntil(agents[0], (info) => info.state === 'working', 'the prompt reaching the agent', 15_000);
    await waitFor(async () => (await shown())?.includes('> hello from the page'), { what: 'the prompt in the terminal', timeoutMs: 10_000 });
    assert.equal(await shown(), await screen());
    await context.close();
  });

  it("tells the server which cards are on screen (board.watch): those a scroll brings in, none on an agent's page", async () => {
    // Short enough that one card at a time fits.
    const context = await browser.newContext({ viewport: { width: 390, height: 260 } });
    const page = await context.newPage();
    const watched: string[][] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const message = JSON.parse(String(payload));
        if (message.method === 'board.watch') watched.push([...message.params.ids].sort());
      }),
    );
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    await waitFor(async () => (await boardOrder(page)).length === 3, { what: 'three cards', timeoutMs: 10_000 });
    const onScreen = () =>
      page.$$eval('#board .card', (cards) => cards.filter((card) => { const box = card.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight; }).map((card) => (card as HTMLElement).dataset.id!).sort());
    const lastTold = () => JSON.stringify(watched.at(-1) ?? null);
    const top = await onScreen();
    assert.ok(top.length > 0 && top.length < 3, `some cards, not all, fit: ${top}`);
    await waitFor(async () => lastTold() === JSON.stringify(top), { what: `the cards on screen told (${top})`, timeoutMs: 10_000 });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await waitFor(async () => lastTold() === JSON.stringify(await onScreen()) && !(await onScreen()).includes(top[0]!), { what: 'the cards scrolled in told', timeoutMs: 10_000 });
    await page.click(`#board .card[data-id="${(await boardOrder(page)).at(-1)!.id}"]`);
    await waitFor(async () => lastTold() === '[]', { what: "no card on an agent's page", timeoutMs: 10_000 });
    await page.goBack();
    await waitFor(async () => (await onScreen()).length > 0 && lastTold() === JSON.stringify(await onScreen()), { what: 'the cards told again back on the board', timeoutMs: 10_000 });
    await context.close();
  });

  it('installs as a web app: its manifest is served to the signed-in page and its service worker takes the page', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await signedIn(context, web);
    const app = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const link = document.querySelector('link[rel=manifest]') as HTMLLinkElement;
      const manifest = await (await fetch(link.href, { credentials: 'include' })).json();
      return { scope: registration.scope, active: registration.active !== null, name: manifest.name, display: manifest.display, start: manifest.start_url, icons: manifest.icons.length };
    });
    assert.deepEqual(app, { scope: `${web.origin}/`, active: true, name: 'Corral', display: 'standalone', start: '/', icons: 1 });
    await context.close();
  });

  it('fits a phone: one column, large answer buttons, the terminal readable without zoom, the pane not resized', async () => {
    const before = await session.call('pane.get', { target: agents[1] });
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await signedIn(context, web);
    await waitFor(async () => (await boardOrder(page)).length === 3, { what: 'three cards', timeoutMs: 10_000 });
    const widths = await page.$$eval('#board .card', (cards) => cards.map((card) => card.getBoundingClientRect().width));
    assert.ok(widths.every((width) => width > 330), `one column: ${widths}`);
    await page.screenshot({ path: `${SHOTS}web-phone-board.png` });
    await page.click(`#board .card[data-id="${agents[1]}"]`);
    await page.waitForSelector('.xterm-screen');
    const font = await page.evaluate(() => Number.parseFloat(getComputedStyle(document.querySelector('.xterm-rows')!).fontSize));
    assert.ok(font >= 10, `the terminal font is ${font}px`);
    const after = await session.call('pane.get', { target: agents[1] });
    assert.deepEqual([after.cols, after.rows], [before.cols, before.rows], 'viewing never resizes the PTY');
    await page.screenshot({ path: `${SHOTS}web-phone-agent.png` });
    await context.close();
  });
});

describe('corral web answers a blocked agent in a real browser', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  const session = useDaemon();
  let web: WebProcess;
  let browser: Browser;

  before(async () => {
    web = await startWeb(session.daemon);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await web?.dispose();
  });

  it("answers the question with its choice's button, and the agent goes back to working", async () => {
    // The form reaches the screen in two pieces (the fake's FAKE_DIALOG_REST): the page shows it growing.
    const rest = join(session.daemon.dir, 'asker-dialog-rest');
    const agent = await session.fakeAgent(60_000, { name: 'asker', env: { FAKE_DIALOG_REST: rest } });
    await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
    const blocked = await session.agentUntil(agent, (info) => info.state === 'blocked' && info.prompt?.choices?.length === 2, 'the permission prompt without its footer', 15_000);
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await signedIn(context, web);
    await page.goto(`${web.origin}/#/agent/${encodeURIComponent(agent)}`);
    await page.waitForSelector(`.prompt[data-prompt-id="${blocked.prompt.id}"] .choice`);
    assert.equal(await page.locator('.prompt .choice').count(), 2);
    writeFileSync(rest, '');
    // The same prompt, drawn further: its id kept, its footer's choices added.
    await page.waitForSelector(`.prompt[data-prompt-id="${blocked.prompt.id}"] .choice[data-choice="explain"]`, { timeout: 15_000 });
    assert.match((await page.textContent('.prompt-text')) ?? '', /rm -rf \/tmp\/fake-agent-scratch/);
    const yes = blocked.prompt.choices.find((choice: { label: string }) => /^Yes/.test(choice.label));
    await page.screenshot({ path: `${SHOTS}web-phone-blocked.png` });
    await page.click(`.choice[data-choice="${yes.id}"]`);
    await session.agentUntil(agent, (info) => info.state === 'working', 'working after the answer', 15_000);
    await context.close();
  });

  it('takes a risky choice only on a second, deliberate tap: the first arms it and sends nothing', async () => {
    const keylog = join(session.daemon.dir, 'risky-keys.log');
    const agent = await session.fakeAgent(60_000, { name: 'risky', env: { FAKE_KEYLOG: keylog } });
    await session.call('pane.send', { target: agent, text: 'automode', keys: ['Enter'] });
    const blocked = await session.agentUntil(agent, (info) => info.state === 'blocked' && info.prompt?.choices?.some((choice: { keys: string[] }) => choice.keys.includes('BTab')), 'the auto mode dialog', 15_000);
    const leave = blocked.prompt.choices.find((choice: { keys: string[] }) => choice.keys.includes('BTab'));
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // Every frame the page sends, from its first socket on.
    const sent: string[] = [];
    context.on('page', (opened) => opened.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload)))));
    const page = await signedIn(context, web);
    await page.goto(`${web.origin}/#/agent/${encodeURIComponent(agent)}`);
    const button = `.prompt[data-prompt-id="${blocked.prompt.id}"] .choice[data-choice="${leave.id}"]`;
    await page.waitForSelector(button);
    assert.match((await page.getAttribute(button, 'class')) ?? '', /choice-risky/);
    const box = await page.$eval(button, (node) => node.getBoundingClientRect().height);
    assert.ok(box >= 44, `a large button on a phone: ${box}px`);
    await page.tap(button);
    await page.waitForSelector(`${button}.armed`);
    assert.match((await page.textContent(button)) ?? '', /^Tap again/);
    assert.deepEqual(sent.filter((frame) => frame.includes('agent.answer')), [], 'the first tap answers nothing');
    await page.tap(button);
    await session.agentUntil(agent, (info) => info.state !== 'blocked', 'the dialog left', 15_000);
    assert.equal(sent.filter((frame) => frame.includes('agent.answer')).length, 1);
    assert.ok(readFileSync(keylog, 'utf8').includes(JSON.stringify('\x1b[Z')), 'shift+Tab reached the agent');
    await session.screenContains(agent, 'Left auto mode.');
    await context.close();
  });

  it('types nothing for a button of a prompt that changed, and shows the new one', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'changer' });
    await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
    const first = await session.agentUntil(agent, (info) => info.state === 'blocked' && info.prompt?.choices?.length > 0, 'the permission prompt', 15_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The page stops hearing of changes, so that its buttons go stale as a slow phone's would.
    let deaf = false;
    await context.routeWebSocket(/\/socket$/, (route) => {
      const server = route.connectToServer();
      route.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        if (!(deaf && /"method":"board\.card"/.test(String(message)))) route.send(message);
      });
    });
    const page = await signedIn(context, web);
    await page.goto(`${web.origin}/#/agent/${encodeURIComponent(agent)}`);
    await page.waitForSelector(`.prompt[data-prompt-id="${first.prompt.id}"] .choice`);
    deaf = true;
    // Elsewhere the permission is declined and a question asked instead.
    await session.call('pane.send', { target: agent, keys: ['Escape'] });
    await session.agentUntil(agent, (info) => info.state !== 'blocked', 'the permission declined', 15_000);
    await session.call('pane.send', { target: agent, text: 'ask', keys: ['Enter'] });
    const second = await session.agentUntil(agent, (info) => info.state === 'blocked' && info.prompt && info.prompt.id !== first.prompt.id, 'the question', 15_000);
    const before = (await session.call('pane.read', { target: agent })).text;
    await page.click(`.prompt[data-prompt-id="${first.prompt.id}"] .choice >> nth=0`);
    await page.waitForSelector(`.prompt[data-prompt-id="${second.prompt.id}"]`, { timeout: 10_000 });
    assert.match((await page.textContent('.agent-action')) ?? '', /What should I ask you about/);
    assert.equal((await session.call('agent.get', { target: agent })).state, 'blocked', 'still blocked on the question');
    assert.equal((await session.call('pane.read', { target: agent })).text, before, 'nothing was typed');
    await context.close();
  });
});
