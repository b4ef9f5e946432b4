// A blocked card on `corral web`'s board shows the question and its safe answers (allow once, deny;
// src/protocol/safe-choices.ts), never a risky choice; tapped, a button answers the prompt the card
// showed, by its id. In a real browser (Debian's chromium) at desktop and phone sizes, against a real
// daemon with the fake agent blocked on its permission form.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { safeChoices, type AgentPrompt } from '../../src/protocol/prompt.ts';
import { useDaemon } from '../helpers/session.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';

/** Where the screenshots go: docs/images/ with CORRAL_UPDATE_SCREENSHOTS=1, else a temporary folder. */
const SHOTS = process.env.CORRAL_UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../docs/images/', import.meta.url)) : `${mkdtempSync(join(tmpdir(), 'corral-card-answers-'))}/`;

/** A card's answer row as the page shows it. */
function shownAnswers(page: Page, id: string): Promise<{ buttons: { choice: string; label: string }[]; open: boolean; promptId: string | null; question: string | null }> {
  return page.$eval(`#board .card[data-id="${id}"]`, (card) => ({
    buttons: [...card.querySelectorAll<HTMLButtonElement>('.card-choice')].map((button) => ({ choice: button.dataset.choice!, label: button.textContent! })),
    open: card.querySelector('.card-open') !== null,
    promptId: card.querySelector<HTMLElement>('.card-answers')?.dataset.promptId ?? null,
    question: card.querySelector('.card-question')?.textContent ?? null,
  }));
}

describe("a blocked card answers its question with the prompt's safe choices", { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)` }, () => {
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

  async function board(viewport: { width: number; height: number }, phone = false): Promise<Page> {
    const context = await browser.newContext({ viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
    const page = await context.newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    return page;
  }

  /** The fake agent blocked on its permission form, whole, and that prompt. */
  async function blockedAgent(name: string, env: Record<string, string> = {}, ask = 'perm'): Promise<{ id: string; prompt: AgentPrompt }> {
    const id = await session.fakeAgent(60_000, { name, env });
    await session.call('pane.send', { target: id, text: ask, keys: ['Enter'] });
    const info = await session.agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.complete === true, `${name} blocked on the whole form`, 15_000);
    return { id, prompt: info.prompt as AgentPrompt };
  }

  it('shows the question and two buttons, allow once and deny, none risky; "yes" answers it (desktop)', async () => {
    const { id, prompt } = await blockedAgent('deployer');
    const safe = safeChoices(prompt);
    assert.deepEqual(safe.map((choice) => choice.role), ['allow-once', 'deny'], 'the form offers one of each');
    assert.deepEqual(safe.map((choice) => choice.label), ['Yes', 'No, and tell Claude what to do differently']);
    assert.ok(prompt.choices.length > safe.length, 'the footer\'s choices (cancel, amend, explain) are left to the agent\'s page');
    const page = await board({ width: 1280, height: 800 });
    await page.waitForSelector(`#board .card[data-id="${id}"] .card-choice`, { timeout: 15_000 });
    const shown = await shownAnswers(page, id);
    assert.deepEqual(shown.buttons, safe.map((choice) => ({ choice: choice.id, label: choice.label.split(', ')[0] })), 'each labelled by its first words');
    assert.deepEqual(await page.$$eval(`#board .card[data-id="${id}"] .card-choice`, (buttons) => buttons.map((button) => (button as HTMLElement).title)), safe.map((choice) => choice.label), 'and whole on hover');
    assert.equal(shown.promptId, prompt.id, "bound to the card's prompt");
    assert.ok(shown.question?.startsWith(prompt.text.split('\n')[0]!), `the prompt's question: ${shown.question}`);
    assert.equal(await page.isVisible(`#board .card[data-id="${id}"] .card-tail`), false, "the dialog's last lines make way for the buttons");
    await page.screenshot({ path: `${SHOTS}web-board-answers.png` });

    const yes = safe.find((choice) => choice.role === 'allow-once')!;
    await page.click(`#board .card[data-id="${id}"] .card-choice[data-choice="${yes.id}"]`);
    await session.agentUntil(id, (info) => info.state === 'working', 'working after the answer', 15_000);
    assert.equal(new URL(page.url()).hash, '', 'the tap opened no card');
    await page.waitForFunction((card) => document.querySelector(`#board .card[data-id="${card}"]`)?.getAttribute('data-state') !== 'blocked', id, { timeout: 15_000 });
    assert.equal(await page.locator(`#board .card[data-id="${id}"] .card-answers`).count(), 0, 'no buttons once it works');
    await page.context().close();
  });

  it("on a phone: the buttons and the reminder's dismiss fit the card, each 44 px a thumb can take, and a tap on yes unblocks the agent", async () => {
    const { id, prompt } = await blockedAgent('phoner');
    const page = await board({ width: 390, height: 844 }, true);
    const card = `#board .card[data-id="${id}"]`;
    await page.waitForSelector(`${card} .card-choice`, { timeout: 15_000 });
    await page.waitForSelector(`${card} button[data-dismiss]`, { timeout: 15_000 });
    // Measured in one layout pass: every control a finger takes, and the card head's height.
    const fit = await page.$eval(card, (node) => {
      const box = node.getBoundingClientRect();
      // No named function in here: the page has not the helpers a compiled one calls.
      const controls = [...node.querySelectorAll('.card-choice'), node.querySelector('button[data-dismiss]')!].map((button) => {
        const b = button.getBoundingClientRect();
        return { inside: b.left >= box.left && b.right <= box.right && b.top >= box.top && b.bottom <= box.bottom, width: b.width, height: b.height };
      });
      const head = node.querySelector('.card-head')!.getBoundingClientRect().height;
      const name = node.querySelector('.card-name')!.getBoundingClientRect().height;
      return { choices: controls.slice(0, -1), dismiss: controls.at(-1)!, head, name };
    });
    assert.equal(fit.choices.length, 2);
    for (const button of [...fit.choices, fit.dismiss]) {
      assert.ok(button.inside, 'within its card');
      assert.ok(button.height >= 44, `a button a thumb can take: ${button.height}px high`);
    }
    assert.ok(fit.dismiss.width >= 44, `the dismiss a thumb's width: ${fit.dismiss.width}px`);
    // Its room comes from negative margins: the head stays the height of its text, as a card's without a reminder.
    assert.ok(fit.head <= fit.name + 2, `the card head ${fit.head}px, its name ${fit.name}px`);
    await page.screenshot({ path: `${SHOTS}web-phone-board-answers.png` });
    const yes = safeChoices(prompt).find((choice) => choice.role === 'allow-once')!;
    await page.tap(`${card} .card-choice[data-choice="${yes.id}"]`);
    await session.agentUntil(id, (info) => info.state === 'working', 'working after the tap', 15_000);
    assert.equal(new URL(page.url()).hash, '', 'the tap opened no card');
    await page.context().close();
  });

  it('a prompt not read whole shows "open to answer" and no button, until it is whole', async () => {
    const rest = join(session.daemon.dir, 'halfway-rest');
    const id = await session.fakeAgent(60_000, { name: 'halfway', env: { FAKE_DIALOG_REST: rest } });
    await session.call('pane.send', { target: id, text: 'perm', keys: ['Enter'] });
    const info = await session.agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.complete === false, 'blocked on the form without its footer', 15_000);
    const page = await board({ width: 1280, height: 800 });
    await page.waitForSelector(`#board .card[data-id="${id}"] .card-open`, { timeout: 15_000 });
    const shown = await shownAnswers(page, id);
    assert.deepEqual([shown.buttons, shown.open], [[], true]);
    assert.equal(await page.textContent(`#board .card[data-id="${id}"] .card-open`), 'open to answer');
    // Drawn whole, under the same id: its buttons come.
    writeFileSync(rest, '');
    await page.waitForSelector(`#board .card[data-id="${id}"] .card-choice`, { timeout: 15_000 });
    assert.equal((await shownAnswers(page, id)).promptId, info.prompt.id);
    await page.context().close();
  });

  it('a dialog with a risky choice and none safe (leave auto mode) shows "open to answer" and no button', async () => {
    const id = await session.fakeAgent(60_000, { name: 'automode' });
    await session.call('pane.send', { target: id, text: 'automode', keys: ['Enter'] });
    const info = await session.agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.choices?.some((choice: { keys: string[] }) => choice.keys.includes('BTab')), 'the auto mode dialog', 15_000);
    assert.deepEqual(safeChoices(info.prompt), []);
    const page = await board({ width: 1280, height: 800 });
    await page.waitForSelector(`#board .card[data-id="${id}"] .card-open`, { timeout: 15_000 });
    assert.deepEqual((await shownAnswers(page, id)).buttons, []);
    await page.context().close();
    await session.call('pane.send', { target: id, keys: ['Escape'] });
  });

  it('while another viewer holds the pane\'s lease, a tap types nothing and the card says who holds it', async () => {
    const { id, prompt } = await blockedAgent('leased');
    const holder = await board({ width: 1280, height: 800 });
    await holder.goto(`${web.origin}/#/agent/${encodeURIComponent(id)}`);
    await holder.click('.term-bar button:has-text("Take control")', { timeout: 15_000 });
    await holder.waitForSelector('.term-bar button:has-text("Release control")', { timeout: 15_000 });
    const page = await board({ width: 1280, height: 800 });
    const yes = safeChoices(prompt).find((choice) => choice.role === 'allow-once')!;
    const button = `#board .card[data-id="${id}"] .card-choice[data-choice="${yes.id}"]`;
    await page.waitForSelector(button, { timeout: 15_000 });
    await page.click(button);
    await page.waitForFunction((card) => /control lease|typing into/.test(document.querySelector(`#board .card[data-id="${card}"] .card-status`)?.textContent ?? ''), id, { timeout: 15_000 });
    assert.equal((await session.call('agent.get', { target: id })).state, 'blocked', 'nothing was typed');
    assert.equal(await page.isEnabled(button), true, 'the button can be tapped again');
    await holder.context().close();
    await page.context().close();
  });

  it('a question longer than its card can show: a tap types nothing and says to open the agent', async () => {
    const command = `rm -rf ${Array.from({ length: 20 }, (_, i) => `/srv/project/build/output-${i}`).join(' ')}`;
    const { id, prompt } = await blockedAgent('wordy', {}, `perm ${command}`);
    assert.ok(prompt.text.includes(command), 'the daemon read the whole command');
    const page = await board({ width: 1280, height: 800 });
    const yes = safeChoices(prompt).find((choice) => choice.role === 'allow-once')!;
    const button = `#board .card[data-id="${id}"] .card-choice[data-choice="${yes.id}"]`;
    await page.waitForSelector(button, { timeout: 15_000 });
    await page.click(button);
    await page.waitForFunction((card) => /does not fit/.test(document.querySelector(`#board .card[data-id="${card}"] .card-status`)?.textContent ?? ''), id, { timeout: 15_000 });
    const info = await session.call('agent.get', { target: id });
    assert.equal(info.state, 'blocked', 'nothing was typed');
    assert.equal(info.prompt?.id, prompt.id);
    await page.context().close();
  });
});
