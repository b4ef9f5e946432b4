// The approval policy on `corral web` (docs/web.md, docs/policy.md): a line above the board saying the
// policy is on, in dry-run or paused, with the kill switch, kept live as the policy changes; and on an
// agent's page what the policy last did with its prompts. In a real browser (Debian's chromium).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeTempDir } from '../../harness/daemon.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';
import { FAKE_CLAUDE, useDaemon } from '../helpers/session.ts';

describe('the web view shows the approval policy, pauses and resumes it, and says what it did on an agent', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)` }, () => {
  const dir = makeTempDir();
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  writeFileSync(join(dir, 'config', 'corral', 'policy.toml'), `[[rule]]\nname = "tests"\ntool = "Bash"\ncommand = 'npm test'\naction = "allow"\n`);
  const session = useDaemon({ dir });
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

  async function board(phone = false): Promise<Page> {
    const size = phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 800 } };
    const page = await (await browser.newContext(size)).newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    return page;
  }

  const policyText = (page: Page) => page.$eval('#policy', (node) => node.textContent ?? '').catch(() => '');

  it('a policy line with its kill switch: pressed, the daemon pauses; resumed elsewhere, the line follows', async () => {
    const page = await board();
    await page.waitForSelector('#policy .policy-state', { timeout: 15_000 });
    assert.match(await policyText(page), /^Policy on1 rulePause policy/);
    await page.click('#policy button');
    await waitFor(async () => (await session.call('policy.status', {})).paused, { what: 'the daemon paused by the button' });
    await page.waitForFunction(() => document.querySelector('#policy .policy-state')?.textContent === 'Policy paused', null, { timeout: 15_000 });
    assert.match(await policyText(page), /Resume policy/);
    // Resumed from the command line (or any client): the line follows the daemon's policy.changed.
    await session.call('policy.resume', {});
    await page.waitForFunction(() => document.querySelector('#policy .policy-state')?.textContent === 'Policy on', null, { timeout: 15_000 });
    await page.context().close();
  });

  it('on a phone the kill switch is 44 px high and stays where the thumb pressed it as the line flips', async () => {
    const page = await board(true);
    await page.waitForSelector('#policy .policy-state', { timeout: 15_000 });
    const button = () => page.$eval('#policy button', (node) => {
      const box = node.getBoundingClientRect();
      return { right: Math.round(box.right), top: Math.round(box.top), height: box.height, text: node.textContent };
    });
    const on = await button();
    await page.tap('#policy button');
    await page.waitForFunction(() => document.querySelector('#policy .policy-state')?.textContent === 'Policy paused', null, { timeout: 15_000 });
    const paused = await button();
    assert.ok(on.height >= 44, `a button a thumb can take: ${on.height}px`);
    assert.deepEqual([paused.text, paused.right, paused.top], ['Resume policy', on.right, on.top], 'Resume where Pause was');
    await session.call('policy.resume', {});
    await page.context().close();
  });

  it("an agent's page says its last prompt was answered by policy rule N (file:line)", async () => {
    const launcher = join(dir, 'bin', 'claude');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(launcher, `#!${process.execPath}\nimport(${JSON.stringify(pathToFileURL(FAKE_CLAUDE).href)});\n`);
    chmodSync(launcher, 0o755);
    const pane = await session.call('pane.spawn', { command: launcher, cwd: dir, name: 'tester', env: { FAKE_WORK_MS: '200', FAKE_NO_DESCRIPTION: '1' } });
    await session.agentUntil(pane.id, (i) => i.agent === 'claude' && i.rawState === 'idle', 'the idle prompt box');
    await session.call('agent.prompt', { target: pane.id, text: 'perm npm test' });
    await session.screenContains(pane.id, 'Command ran.');
    const page = await board();
    await page.goto(`${web.url.split('#')[0]}#/agent/${encodeURIComponent(pane.id)}`);
    await page.waitForFunction(() => /answered by policy rule 1/.test(document.querySelector('.policy-decision')?.textContent ?? ''), null, { timeout: 15_000 });
    const line = await page.$eval('.policy-decision', (node) => node.textContent ?? '');
    assert.match(line, /^Last prompt answered by policy rule 1 \(.*policy\.toml:1\) "tests" with yes$/);
    await page.context().close();
    await session.call('pane.kill', { target: pane.id });
  });
});
