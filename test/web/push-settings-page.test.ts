// The board's "Notification settings" in Debian's chromium: what this device receives, saved to the
// daemon (push.set through the page's socket). A browser here reaches no real push service, so the
// page is shown the subscription of the test's device (harness/push-service.ts) as its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { PUSH_LIST } from '../../src/protocol/methods/index.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';
import { PushLab } from '../daemon/push/push-helpers.ts';

describe('notification settings on the board', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  let lab: PushLab;
  let web: WebProcess;
  let browser: Browser;
  let page: Page;
  before(async () => {
    lab = await PushLab.start();
    await lab.agent('settings-agent');
    web = await startWeb(lab.daemon);
    browser = await launchChromium();
    page = await board({});
  });

  /** The board in a browser whose own push subscription is the test device's. */
  async function board(options: BrowserContextOptions): Promise<Page> {
    const context = await browser.newContext(options);
    await context.grantPermissions(['notifications'], { origin: web.origin });
    // A string, not a function: the test's compiled functions carry helpers the page does not have.
    const subscription = JSON.stringify({ endpoint: lab.device.endpoint });
    await context.addInitScript({ content: `navigator.serviceWorker.getRegistration = async () => ({ pushManager: { getSubscription: async () => (${subscription}) } });` });
    const opened = await context.newPage();
    await opened.goto(web.url);
    await opened.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
    return opened;
  }
  after(async () => {
    await browser?.close();
    await web?.dispose();
    await lab?.dispose();
  });

  it("shows this device's settings and saves what it receives, from which workspace, and its quiet hours", async () => {
    await page.locator('#notify-settings').click({ timeout: 20_000 });
    const dialog = page.locator('#push-settings');
    await dialog.waitFor();
    assert.equal(await dialog.locator('select').first().inputValue(), 'blocked,done,failed', 'the default, as the daemon keeps it');
    await dialog.locator('select').first().selectOption('blocked');
    await dialog.locator('select').nth(1).selectOption('w1');
    await dialog.locator('input').fill('22:00-07:00');
    await dialog.getByText('Save').click();
    await dialog.waitFor({ state: 'detached' });
    const device = (await lab.call(PUSH_LIST, {})).devices.find((one) => one.id === lab.deviceId)!;
    assert.deepEqual([device.states, device.workspaces, device.quietHours], [['blocked'], ['w1'], '22:00-07:00']);

    await page.locator('#notify-settings').click();
    await dialog.waitFor();
    assert.equal(await dialog.locator('input').inputValue(), '22:00-07:00');
    await dialog.locator('input').fill('');
    await dialog.locator('select').nth(1).selectOption('');
    await dialog.getByText('Save').click();
    await dialog.waitFor({ state: 'detached' });
    const after = (await lab.call(PUSH_LIST, {})).devices.find((one) => one.id === lab.deviceId)!;
    assert.deepEqual([after.workspaces, after.quietHours], [[], null], "every workspace, the daemon's quiet hours");
  });

  it("on a phone: the settings fit the screen, each control 44 px high with 16 px text (no zoom), the bar on one row", async () => {
    const phone = await board({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    await phone.locator('#notify-settings').tap({ timeout: 20_000 });
    await phone.locator('#push-settings').waitFor();
    // Measured in one layout pass.
    const shown = await phone.evaluate(() => {
      const dialog = document.getElementById('push-settings')!.getBoundingClientRect();
      const controls = [...document.querySelectorAll<HTMLElement>('#push-settings select, #push-settings input, #push-settings button')].map((node) => {
        const box = node.getBoundingClientRect();
        return { what: node.tagName === 'BUTTON' ? node.textContent! : node.tagName, height: box.height, inside: box.left >= dialog.left && box.right <= dialog.right, font: parseFloat(getComputedStyle(node).fontSize) };
      });
      const bar = document.getElementById('bar')!;
      const buttons = [...bar.querySelectorAll('button:not([hidden])')].map((node) => node.getBoundingClientRect().top);
      return { fits: dialog.left >= 0 && dialog.right <= innerWidth, controls, barRow: buttons.every((top) => top < document.getElementById('home')!.getBoundingClientRect().bottom) };
    });
    assert.ok(shown.fits, 'the dialog within the screen');
    assert.equal(shown.controls.length, 5, 'receive, from, quiet hours, cancel, save');
    for (const control of shown.controls) {
      assert.ok(control.inside && control.height >= 44, `${control.what}: ${control.height}px high, within the dialog`);
      if (control.what === 'SELECT' || control.what === 'INPUT') assert.ok(control.font >= 16, `${control.what}: ${control.font}px text`);
    }
    assert.ok(shown.barRow, '"Notification settings" on the bar\'s one row');
    await phone.context().close();
  });
});
