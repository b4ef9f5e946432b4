// `corral web --fleet` in a real browser: this machine's daemon and two more, each reached through its
// own throwaway sshd on localhost (harness/fleet-host.ts), on one board, with Debian's chromium.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { connect, type CorralClient } from '../../src/client/index.ts';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { OFFLINE_WITHIN_MS, startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, pageSocket, sessionCookieOf, startWeb, type WebProcess } from '../../harness/web.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 90_000;

interface ShownCard {
  id: string;
  host: string | undefined;
  state: string;
  stale: boolean;
}

/** The board's cards as the page shows them. */
function shownCards(page: Page): Promise<ShownCard[]> {
  return page.$$eval('#board .card', (cards) =>
    cards.map((card) => {
      const data = (card as HTMLElement).dataset;
      return { id: data.id!, host: data.host, state: data.state!, stale: data.stale === 'true' };
    }),
  );
}

/** Each host's line above the board: its name and state. */
function shownHosts(page: Page): Promise<Record<string, string>> {
  return page.$$eval('#hosts .host', (hosts) => Object.fromEntries(hosts.map((host) => [(host as HTMLElement).dataset.host!, (host as HTMLElement).dataset.state!])));
}

async function agentUntil(client: CorralClient, target: string, accept: (info: any) => boolean, what: string): Promise<any> {
  let info: any;
  await waitFor(async () => accept((info = await client.call('agent.get', { target }))), { what, timeoutMs: STEP_MS });
  return info;
}

describe('corral web --fleet: one board of every host, in a real browser', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  let local: DaemonProcess;
  let box1: FleetHost;
  let box2: FleetHost;
  let north: CorralClient;
  let south: CorralClient;
  let web: WebProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    [local, box1, box2] = await Promise.all([startDaemon(), startFleetHost('box1'), startFleetHost('box2')]);
    // corral web reads the config of the local daemon's test folder (harness/daemon.ts testEnv).
    mkdirSync(join(local.dir, 'config', 'corral'), { recursive: true });
    writeFileSync(join(local.dir, 'config', 'corral', 'config.toml'), `${box1.toml}\n${box2.toml}`);
    [north, south] = await Promise.all([connect({ socket: box1.daemon.socket }), connect({ socket: box2.daemon.socket })]);
    // The same pane id on both hosts: only the host tells them apart.
    const agent = { command: process.execPath, args: [FAKE_AGENT], env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300' } };
    await north.call('pane.spawn', { ...agent, name: 'north', cwd: box1.daemon.dir });
    await south.call('pane.spawn', { ...agent, name: 'south', cwd: box2.daemon.dir });
    await Promise.all([agentUntil(north, 'north', (i) => i.rawState === 'idle', 'north idle'), agentUntil(south, 'south', (i) => i.rawState === 'idle', 'south idle')]);
    web = await startWeb(local, ['--fleet']);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
  });

  after(async () => {
    await browser?.close();
    await web?.dispose();
    north?.close();
    south?.close();
    await Promise.all([local?.dispose(), box1?.dispose(), box2?.dispose()]);
  });

  it("shows both hosts' agents, each card marked by its host, and a line per host", async () => {
    await waitFor(async () => (await shownCards(page)).length === 2, { what: 'two cards', timeoutMs: STEP_MS });
    const cards = (await shownCards(page)).sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(cards.map((card) => [card.id, card.host, card.stale]), [['w1:p1@box1', 'box1', false], ['w1:p1@box2', 'box2', false]]);
    assert.deepEqual(await shownHosts(page), { local: 'connected', box1: 'connected', box2: 'connected' });
    assert.match((await page.textContent('#board .card[data-host="box2"] .card-name')) ?? '', /south/);
  });

  it('answers a blocked agent on the second host from its button, and mirrors that pane', async () => {
    await south.call('pane.send', { target: 'south', text: 'perm', keys: ['Enter'] });
    const blocked = await agentUntil(south, 'south', (i) => i.state === 'blocked' && i.prompt?.choices?.length > 0, 'the permission prompt on box2');
    // The board says so with one count for the fleet.
    await page.waitForFunction(() => (document.querySelector('#board .card[data-host="box2"]') as HTMLElement | null)?.dataset.state === 'blocked', null, { timeout: STEP_MS });
    await waitFor(async () => /1 needs you/.test((await page.textContent('#needs')) ?? ''), { what: 'the fleet needs-you count', timeoutMs: STEP_MS });

    await page.goto(`${web.origin}/#/agent/${encodeURIComponent('w1:p1@box2')}`);
    await page.waitForSelector(`.prompt[data-prompt-id="${blocked.prompt.id}"] .choice`, { timeout: STEP_MS });
    // The terminal is box2's pane, not box1's pane of the same id.
    const screen = async () => (await south.call('pane.read', { target: 'south' })).text.split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();
    const shown = async () => ((await page.evaluate(() => (window as any).corral.terminalText())) as string | null)?.split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();
    await waitFor(async () => (await shown()) === (await screen()), { what: "the terminal showing box2's pane", timeoutMs: STEP_MS });

    const yes = blocked.prompt.choices.find((choice: { label: string }) => /^Yes/.test(choice.label));
    await page.click(`.choice[data-choice="${yes.id}"]`);
    await agentUntil(south, 'south', (i) => i.state !== 'blocked', 'south answered');
    await agentUntil(south, 'south', (i) => i.rawState === 'idle', 'south idle after the answer');

    // The prompt box prompts box2's agent.
    await page.fill('.composer textarea', 'hello from the fleet');
    await page.click('.composer button[type=submit]');
    // Submitted, it moves from the composer box to the transcript, and its turn ends.
    await waitFor(async () => (await screen()).includes('> hello from the fleet\nTask complete.'), { what: 'the prompt on box2, and its turn over', timeoutMs: STEP_MS });

    // The control lease is box2's pane's: keys typed in the terminal reach it.
    await page.click('.term-bar button:has-text("Take control")');
    await page.waitForSelector('.term-bar button:has-text("Release control")', { timeout: STEP_MS });
    await page.click('.xterm-screen');
    await page.keyboard.type('typed');
    await waitFor(async () => (await screen()).includes('❯ typed'), { what: 'the keys on box2', timeoutMs: STEP_MS });
    await page.keyboard.press('Enter');
    await waitFor(async () => (await screen()).includes('> typed\nTask complete.'), { what: 'the typed turn over on box2', timeoutMs: STEP_MS });
    await page.click('.term-bar button:has-text("Release control")');

    assert.doesNotMatch((await north.call('pane.read', { target: 'north' })).text, /hello from the fleet|typed/, "box1's pane of the same id was not touched");
    await page.goto(`${web.origin}/#/`);
  });

  it("shows a host whose sshd stopped as offline, its cards stale with their last known state, the other host's live", async () => {
    // Blocked, it stays so until answered: the state the card must keep while its host is away.
    await south.call('pane.send', { target: 'south', text: 'perm', keys: ['Enter'] });
    await agentUntil(south, 'south', (i) => i.state === 'blocked', 'south blocked again');
    await waitFor(async () => (await shownCards(page)).find((card) => card.host === 'box2')?.state === 'blocked', { what: "box2's card blocked", timeoutMs: STEP_MS });
    // An agent's page of box2 open meanwhile, in a second tab.
    const watcher = await page.context().newPage();
    await watcher.goto(`${web.origin}/#/agent/${encodeURIComponent('w1:p1@box2')}`);
    const screen = async () => (await south.call('pane.read', { target: 'south' })).text.split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();
    const shown = async () => ((await watcher.evaluate(() => (window as any).corral.terminalText())) as string | null)?.split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();
    await waitFor(async () => (await shown()) === (await screen()), { what: "the second tab showing box2's pane", timeoutMs: STEP_MS });

    await box2.sshd.halt();
    await waitFor(async () => (await shownHosts(page)).box2 === 'offline', { what: 'box2 offline on the page', timeoutMs: OFFLINE_WITHIN_MS + 5000 });
    await waitFor(async () => (await shownCards(page)).find((card) => card.host === 'box2')?.stale === true, { what: "box2's card stale", timeoutMs: STEP_MS });
    const away = (await shownCards(page)).find((card) => card.host === 'box2')!;
    assert.equal(away.state, 'blocked', 'the last known state, never idle');
    assert.match((await page.textContent('#hosts .host[data-host="box2"] .host-state')) ?? '', /^(offline|connecting) \S+$/, 'since when (tried again meanwhile)');
    assert.match((await page.textContent('#hosts .host[data-host="box2"] .host-why summary')) ?? '', /^(connection lost|unreachable)$/, 'why, short');
    assert.match((await page.textContent('#hosts .host[data-host="box2"] .host-reason')) ?? '', /box2/, "and ssh's own words on demand");
    await page.screenshot({ path: join(mkdtempSync(join(tmpdir(), 'corral-fleet-web-')), 'fleet-board.png') });

    // box1 goes on: a prompt there shows live.
    await north.call('agent.prompt', { target: 'north', text: 'write the tests' });
    await waitFor(async () => (await shownCards(page)).some((card) => card.host === 'box1' && !card.stale && card.state === 'working'), { what: 'box1 working on the page', timeoutMs: STEP_MS });

    // Back, box2's card is live again.
    await box2.sshd.resume();
    await waitFor(async () => (await shownHosts(page)).box2 === 'connected' && (await shownCards(page)).find((card) => card.host === 'box2')?.stale === false, { what: 'box2 live again', timeoutMs: STEP_MS });
    // The open page's terminal ended with its host, and is mirrored again now that it is back.
    await south.call('pane.send', { target: 'south', keys: ['Escape'] });
    await waitFor(async () => !(await screen()).includes('Do you want') && (await shown()) === (await screen()), { what: "the second tab's terminal live again", timeoutMs: STEP_MS });
    assert.equal(await watcher.textContent('.notice'), '');
    await watcher.close();
  });

  it('spans the fleet by [fleet] by_default, or not with --no-fleet; a target on an unknown host is host_not_found', async () => {
    writeFileSync(join(local.dir, 'config', 'corral', 'config.toml'), `${box1.toml}\n${box2.toml}\n[fleet]\nby_default = true\n`);
    for (const [args, hosts] of [[[], ['local', 'box1', 'box2']], [['--no-fleet'], []]] as const) {
      const served = await startWeb(local, [...args]);
      const socket = await pageSocket(served, { origin: served.origin, cookie: await sessionCookieOf(served) });
      try {
        const { result } = await socket.call('board.get');
        assert.deepEqual(result.hosts.map((host: { name: string }) => host.name), hosts, `corral web ${args.join(' ')}`);
        if (hosts.length > 0) {
          const missing = await socket.call('lease.take', { target: 'north@nowhere' });
          assert.equal(missing.error.data.code, 'host_not_found');
          // The same pane id on two hosts is two panes, each with a lease of its own.
          const taken = await socket.call('lease.take', { target: 'w1:p1@box1' });
          assert.deepEqual([taken.result.id, taken.result.mine], ['w1:p1@box1', true]);
        }
      } finally {
        socket.close();
        await served.dispose();
      }
    }
  });
});
