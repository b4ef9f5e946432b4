// `corral web --fleet` shows each host's approval policy on its host's line, with its kill switch: in a
// real browser (Debian's chromium), this machine's daemon without a policy and one more with one,
// reached through its own throwaway sshd on localhost (harness/fleet-host.ts). Pressed, the host's own
// daemon pauses (this machine's stays as it is); resumed on the host, the line follows; the host away,
// its line shows no switch. Its blocked agent's card shows its name whole beside the long host name.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { blockedBuilder } from './blocked-builder.ts';
import type { Browser, Page } from 'playwright-core';
import { connect, type CorralClient } from '../../src/client/index.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, pageSocket, sessionCookieOf, startWeb, type WebProcess } from '../../harness/web.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 90_000;

/** A daemon folder whose config holds a policy of one rule. */
function folderWithPolicy(): string {
  const dir = makeTempDir();
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  writeFileSync(join(dir, 'config', 'corral', 'policy.toml'), `[[rule]]\nname = "tests"\ntool = "Bash"\ncommand = 'npm test'\naction = "allow"\n`);
  return dir;
}

/** Each host's line: its policy's words and its button, '' where it shows none. */
function shownPolicies(page: Page): Promise<Record<string, { state: string; button: string }>> {
  return page.$$eval('#hosts .host', (hosts) =>
    Object.fromEntries(
      hosts.map((node) => [
        (node as HTMLElement).dataset.host!,
        { state: node.querySelector('.policy-state')?.textContent ?? '', button: node.querySelector('.host-policy button')?.textContent ?? '' },
      ]),
    ),
  );
}

describe("corral web --fleet: each host's approval policy on its line, with its kill switch", { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  let local: DaemonProcess;
  let server: FleetHost;
  let client: CorralClient;
  let web: WebProcess;
  let browser: Browser;

  before(async () => {
    [local, server] = await Promise.all([startDaemon(), startFleetHost('build-server', { dir: folderWithPolicy() })]);
    mkdirSync(join(local.dir, 'config', 'corral'), { recursive: true });
    writeFileSync(join(local.dir, 'config', 'corral', 'config.toml'), server.toml);
    client = await connect({ socket: server.daemon.socket });
    await blockedBuilder(client, server.daemon.dir, 'perm rm -rf x', STEP_MS);
    web = await startWeb(local, ['--fleet']);
    browser = await launchChromium();
  });

  after(async () => {
    client?.close();
    await browser?.close();
    await web?.dispose();
    await Promise.all([local?.dispose(), server?.dispose()]);
  });

  async function open(phone: boolean): Promise<Page> {
    const size = phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 800 } };
    const page = await (await browser.newContext(size)).newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    return page;
  }

  it("shows build-server's policy on its line and none for this machine; Pause pauses build-server's daemon only, and a resume on build-server shows at once", async () => {
    const page = await open(false);
    await waitFor(async () => (await shownPolicies(page))['build-server']?.state === 'Policy on', { what: "build-server's policy on its line", timeoutMs: STEP_MS });
    assert.deepEqual((await shownPolicies(page)).local, { state: '', button: '' }, 'this machine has no policy: no words, no switch');
    assert.equal(await page.$('#policy .policy-state'), null, 'no line above the board: each host runs its own');
    assert.match((await page.textContent('#hosts .host[data-host="build-server"]')) ?? '', /Policy on1 rulePause policy$/);
    // Its card: the host's chip gives way first, the name shows whole (it read "buil…").
    await page.waitForSelector('#board .card[data-host="build-server"] button[data-dismiss]', { timeout: STEP_MS });
    const name = await page.$eval('#board .card[data-host="build-server"] .card-name', (node) => ({ text: node.textContent, cut: node.scrollWidth > node.clientWidth }));
    assert.deepEqual(name, { text: 'builder', cut: false }, 'the name shows whole beside its host, reminder and badge');

    await page.click('#hosts .host[data-host="build-server"] .host-policy button');
    await waitFor(async () => (await client.call('policy.status', {})).paused, { what: "build-server's daemon paused by its line's button", timeoutMs: STEP_MS });
    await waitFor(async () => (await shownPolicies(page))['build-server']?.button === 'Resume policy', { what: "build-server's line saying paused", timeoutMs: STEP_MS });
    assert.equal((await shownPolicies(page))['build-server']!.state, 'Policy paused');
    const localClient = await connect({ socket: local.socket });
    assert.equal((await localClient.call('policy.status', {})).paused, false, "this machine's daemon left as it was");
    localClient.close();

    // Resumed on build-server itself (its command line, any client): build-server's policy.changed reaches the line.
    await client.call('policy.resume', {});
    await waitFor(async () => (await shownPolicies(page))['build-server']?.state === 'Policy on', { what: "build-server's line following its resume", timeoutMs: STEP_MS });
    await page.context().close();
  });

  it('on a phone the switch is 44 px high and each host line fits the screen', async () => {
    const page = await open(true);
    await waitFor(async () => (await shownPolicies(page))['build-server']?.button === 'Pause policy', { what: "build-server's switch", timeoutMs: STEP_MS });
    // Measured in one layout pass.
    const layout = await page.$eval('#hosts', (list) => {
      const button = list.querySelector('.host-policy button')!.getBoundingClientRect();
      const notify = document.getElementById('notify')!;
      return {
        button: button.height,
        atEnd: Math.abs(button.right - list.getBoundingClientRect().right) < 1,
        rows: [...list.querySelectorAll('.host')].map((host) => host.scrollWidth <= host.clientWidth),
        // "Notify me" on a phone: the bar keeps one row.
        notify: notify.hidden || notify.getBoundingClientRect().top < document.getElementById('home')!.getBoundingClientRect().bottom,
      };
    });
    assert.ok(layout.button >= 44, `a button a thumb can take: ${layout.button}px`);
    assert.ok(layout.atEnd, "the switch at the line's end, where it stays as the line flips");
    assert.deepEqual(layout.rows, [true, true], 'no line wider than the phone');
    assert.ok(layout.notify, 'the bar on one row');
    await page.context().close();
  });

  it('host.policy answers host_not_found for a host not in the fleet, and pauses the host named', async () => {
    const socket = await pageSocket(web, { origin: web.origin, cookie: await sessionCookieOf(web) });
    const unknown = await socket.call('host.policy', { host: 'nowhere', paused: true });
    assert.equal(unknown.error?.data?.code, 'host_not_found', JSON.stringify(unknown));
    const paused = await socket.call('host.policy', { host: 'build-server', paused: true });
    assert.equal(paused.result?.paused, true, JSON.stringify(paused));
    const resumed = await socket.call('host.policy', { host: 'build-server', paused: false });
    assert.equal(resumed.result?.paused, false);
    socket.close();
  });

  it('the host away: its line shows no switch, and host.policy says it is unreachable', async () => {
    const page = await open(false);
    await waitFor(async () => (await shownPolicies(page))['build-server']?.button === 'Pause policy', { what: "build-server's switch", timeoutMs: STEP_MS });
    await server.sshd.halt();
    await waitFor(async () => (await page.getAttribute('#hosts .host[data-host="build-server"]', 'data-state')) === 'offline', { what: 'build-server offline', timeoutMs: STEP_MS });
    assert.deepEqual((await shownPolicies(page))['build-server'], { state: '', button: '' }, 'nothing to press on a host away');
    const socket = await pageSocket(web, { origin: web.origin, cookie: await sessionCookieOf(web) });
    const away = await socket.call('host.policy', { host: 'build-server', paused: true });
    assert.equal(away.error?.data?.code, 'daemon_unreachable', JSON.stringify(away));
    socket.close();
    await page.context().close();
  });
});
