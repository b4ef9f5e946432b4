// `corral web --fleet` says why a host is away in a word or two, with ssh's own words on demand, in a
// real browser at desktop and phone sizes: a host whose sshd stopped (its card stale), one whose ssh
// login is refused, and one where nothing listens, each through a throwaway sshd on localhost.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { blockedBuilder } from './blocked-builder.ts';
import type { Browser, Page } from 'playwright-core';
import { connect, type CorralClient } from '../../src/client/index.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';
import { startSshd, type LocalSshd } from '../../harness/sshd.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 90_000;
/** Where the screenshots go: docs/images/ with CORRAL_UPDATE_SCREENSHOTS=1, else a temporary folder. */
const SHOTS = process.env.CORRAL_UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../docs/images/', import.meta.url)) : `${mkdtempSync(join(tmpdir(), 'corral-fleet-reasons-'))}/`;

/** A `[[hosts]]` table reaching `sshd` with extra ssh options. */
function hostToml(name: string, sshd: LocalSshd, extra: string[]): string {
  return ['[[hosts]]', `name = ${JSON.stringify(name)}`, `ssh = ${JSON.stringify(sshd.host)}`, `ssh_options = ${JSON.stringify(['-F', sshd.sshConfig, ...extra])}`, ''].join('\n');
}

/** Each host's line as the page shows it: state, the short reason and the detail. */
function shownHosts(page: Page): Promise<Record<string, { state: string; why: string | null; detail: string | null; open: boolean }>> {
  return page.$$eval('#hosts .host', (hosts) =>
    Object.fromEntries(
      hosts.map((node) => {
        const host = node as HTMLElement;
        const details = host.querySelector('details');
        return [host.dataset.host!, { state: host.dataset.state!, why: details?.querySelector('summary')?.textContent ?? null, detail: details?.querySelector('.host-reason')?.textContent ?? null, open: details?.open ?? false }];
      }),
    ),
  );
}

describe('corral web --fleet: why a host is away, short, with the detail on demand', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  let local: DaemonProcess;
  let box: FleetHost;
  let locked: LocalSshd;
  let client: CorralClient;
  let web: WebProcess;
  let browser: Browser;

  before(async () => {
    [local, box, locked] = await Promise.all([startDaemon(), startFleetHost('box'), startSshd()]);
    mkdirSync(join(local.dir, 'config', 'corral'), { recursive: true });
    const config = [
      box.toml,
      hostToml('locked', locked, ['-o', 'User=corral-nobody']), // sshd allows only this user: publickey refused
      hostToml('gone', locked, ['-p', '1']), // nothing listens there
    ].join('\n');
    writeFileSync(join(local.dir, 'config', 'corral', 'config.toml'), config);
    client = await connect({ socket: box.daemon.socket });
    await blockedBuilder(client, box.daemon.dir, 'perm', STEP_MS);
    web = await startWeb(local, ['--fleet']);
    browser = await launchChromium();
  });

  after(async () => {
    client?.close();
    await browser?.close();
    await web?.dispose();
    await Promise.all([local?.dispose(), box?.dispose(), locked?.stop()]);
  });

  async function open(width: number, height: number): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    return page;
  }

  it('names each kind of trouble in a word or two, the host name on one line, and shows ssh\'s words when asked', async () => {
    const page = await open(1280, 800);
    await waitFor(async () => {
      const hosts = await shownHosts(page);
      return hosts.locked?.why === 'auth failed' && hosts.gone?.why === 'unreachable' && hosts.box?.state === 'connected';
    }, { what: 'the refused and the unreachable host, short', timeoutMs: STEP_MS });
    const hosts = await shownHosts(page);
    assert.match(hosts.locked!.detail ?? '', /Permission denied/, "ssh's own words kept as the detail");
    assert.match(hosts.gone!.detail ?? '', /Connection refused/);
    assert.equal(hosts.box!.why, null, 'a connected host has no reason');
    assert.equal(hosts.locked!.open, false, 'the detail is closed until asked for');
    assert.equal(await page.getAttribute('#hosts .host[data-host="gone"] details', 'title'), hosts.gone!.detail, 'and on hover');

    // The host whose sshd stops: offline with its card stale, and a short reason.
    await box.sshd.halt();
    await waitFor(async () => (await shownHosts(page)).box?.why === 'unreachable' || (await shownHosts(page)).box?.why === 'connection lost', { what: 'box away, short', timeoutMs: STEP_MS });
    await waitFor(async () => (await page.getAttribute('#board .card[data-host="box"]', 'data-stale')) === 'true', { what: "box's card stale", timeoutMs: STEP_MS });
    // Its head holds the name, its host and its state's badge: the name shows whole, not cut to "bu…".
    const name = await page.$eval('#board .card[data-host="box"] .card-name', (node) => ({ text: node.textContent, cut: node.scrollWidth > node.clientWidth }));
    assert.deepEqual(name, { text: 'builder', cut: false }, "a stale card's name shows whole");
    assert.match((await page.textContent('#board .card[data-host="box"] .card-meta')) ?? '', /^stale · /, 'and the card says it is stale');
    assert.equal(await page.$('#board .card[data-host="box"] button[data-dismiss]'), null, 'no dismiss while its host is away');

    // The lines are drawn again each second as their ages move on, in place: a click at any moment lands.
    await page.$eval('#hosts .host[data-host="locked"]', (line) => ((line as HTMLElement & { marked?: boolean }).marked = true));
    await page.click('#hosts .host[data-host="locked"] summary');
    await waitFor(async () => (await shownHosts(page)).locked!.open, { what: 'the detail opened' });
    assert.ok(await page.isVisible('#hosts .host[data-host="locked"] .host-reason'), 'the detail shows');
    // The line is drawn again as its age moves on: the same line, what was opened stays open.
    const drawn = await page.textContent('#hosts .host[data-host="locked"] .host-state');
    await waitFor(async () => (await page.textContent('#hosts .host[data-host="locked"] .host-state')) !== drawn, { what: "locked's line drawn again", timeoutMs: STEP_MS });
    assert.ok((await shownHosts(page)).locked!.open, 'still open');
    assert.equal(await page.$eval('#hosts .host[data-host="locked"]', (line) => (line as HTMLElement & { marked?: boolean }).marked), true, 'its line kept, its text changed');
    const nameHeights = await page.$$eval('#hosts .host-name', (names) => names.map((name) => name.getBoundingClientRect().height));
    const lineHeight = await page.$eval('#hosts .host-name', (name) => parseFloat(getComputedStyle(name).lineHeight) || name.getBoundingClientRect().height);
    for (const height of nameHeights) assert.ok(height <= lineHeight * 1.5, `a host's name on one line (${height} px)`);
    await page.screenshot({ path: `${SHOTS}web-fleet-hosts.png` });
    await page.context().close();
  });

  it('fits a phone: each host on its line, the reason short', async () => {
    const page = await open(390, 844);
    await waitFor(async () => {
      const hosts = await shownHosts(page);
      return hosts.locked?.why === 'auth failed' && hosts.gone?.why === 'unreachable' && hosts.box?.why !== null && hosts.box?.why !== undefined;
    }, { what: 'every host away, short', timeoutMs: STEP_MS });
    // The lines and a name measured in one task, so in one layout: the list is drawn again as ages
    // move on, and two measures apart may see two drawings (a name measured at under 8 px once).
    let layout: { rows: { height: number; width: number; room: number }[]; nameHeight: number } | undefined;
    await waitFor(async () => {
      layout = await page.$eval('#hosts', (list) => ({
        rows: [...list.querySelectorAll('.host')].map((host) => ({ height: host.getBoundingClientRect().height, width: host.scrollWidth, room: host.clientWidth })),
        nameHeight: list.querySelector('.host-name')?.getBoundingClientRect().height ?? 0,
      }));
      return layout.nameHeight > 0;
    }, { what: 'the host lines laid out', timeoutMs: STEP_MS });
    const { rows, nameHeight } = layout!;
    for (const row of rows) assert.ok(row.width <= row.room, 'no line wider than the phone');
    for (const row of rows) assert.ok(row.height <= nameHeight * 2.5, `a closed host line stays short (${row.height} px)`);
    await page.click('#hosts .host[data-host="gone"] summary');
    await waitFor(async () => (await shownHosts(page)).gone!.open, { what: 'the detail opened' });
    await page.screenshot({ path: `${SHOTS}web-phone-fleet-hosts.png` });
    await page.context().close();
  });
});
