// The service worker of `corral web` in Debian's chromium: a push the daemon sent (taken, decrypted,
// from the local push service) is handed to the worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage), since a browser here reaches no real push service; the worker
// shows it with its answer buttons, and its answer for a tapped button unblocks the agent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, Worker } from 'playwright-core';
import { AGENT_GET, PANE_SEND } from '../../src/protocol/methods/index.ts';
import { waitFor } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';
import { PushLab, type Pushed } from '../daemon/push/push-helpers.ts';

interface Shown {
  title: string;
  body: string;
  tag: string;
  actions: string[];
  data: Pushed;
}

describe('the service worker shows a push and answers from its button', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  let lab: PushLab;
  let web: WebProcess;
  let browser: Browser;
  let page: Page;
  before(async () => {
    lab = await PushLab.start();
    web = await startWeb(lab.daemon);
    browser = await launchChromium();
    const context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin: web.origin });
    page = await context.newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
  });
  after(async () => {
    await browser?.close();
    await web?.dispose();
    await lab?.dispose();
  });

  it('shows the question with its safe buttons, and the yes button answers the prompt', async () => {
    const cdp = await page.context().newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => registrations.push(...updated));
    await cdp.send('ServiceWorker.enable');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const registration = await waitFor(() => registrations.find((one) => one.scopeURL.startsWith(web.origin)), { what: 'the worker registration' });
    const worker = await waitFor(() => page.context().serviceWorkers().find((one) => one.url().startsWith(web.origin)), { what: 'the worker' }) as Worker;

    const pane = await lab.agent('phone');
    await lab.call(PANE_SEND, { target: pane, text: 'perm', keys: ['Enter'] });
    const push = (await waitFor(() => lab.pushed().find((one) => one.kind === 'attention' && one.pane === pane && one.state === 'blocked'), { what: 'the push', timeoutMs: 30_000 }))!;
    // The open page shows its own notification of the item first, under the same tag: the push replaces it.
    await waitFor(() => worker.evaluate(async (tag) => ((await (self as any).registration.getNotifications()) as any[]).some((n) => n.tag === tag), push.tag), { what: "the page's own notification", timeoutMs: 20_000 });
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: web.origin, registrationId: registration!.registrationId, data: JSON.stringify(push) });

    const shown = (await waitFor(
      () =>
        worker.evaluate(async (title) => {
          const notifications = await (self as any).registration.getNotifications();
          return notifications.map((n: any) => ({ title: n.title, body: n.body, tag: n.tag, actions: n.actions.map((a: any) => a.action), data: n.data })).find((n: Shown) => n.title === title) ?? null;
        }, push.title),
      { what: 'the notification shown' },
    )) as Shown;
    assert.equal(shown.title, push.title);
    assert.equal(shown.body, push.body);
    assert.match(shown.body, /rm -rf/);
    assert.equal(shown.tag, push.tag);
    assert.deepEqual(shown.actions, push.actions.map((action) => action.action));

    // What notificationclick does for the first button, run in the worker (a test cannot tap a system notification).
    assert.equal(((await worker.evaluate(async () => (await (self as any).registration.getNotifications()).length)) as number), 1, 'one notification for the item');
    await worker.evaluate(async (index) => {
      const [notification] = await (self as any).registration.getNotifications();
      await (self as any).answer(notification.data, notification.data.actions[index]);
    }, 0);
    await waitFor(async () => (await lab.call(AGENT_GET, { target: pane })).state !== 'blocked', { what: 'the agent answered', timeoutMs: 30_000 });

    // The same button again: refused, and the next notification under its tag says why.
    await worker.evaluate(async (data) => (self as any).answer(data, data.actions[0]), shown.data);
    const refused = (await waitFor(
      () => worker.evaluate(async () => ((await (self as any).registration.getNotifications()) as any[]).map((n) => n.body).find((body: string) => /used already/.test(body)) ?? null),
      { what: 'the refusal shown' },
    ))!;
    assert.match(refused, /nothing was typed again; open to answer/);

    // The other button, of the prompt that left: nothing typed, and the next notification says the question changed.
    await worker.evaluate(async (data) => (self as any).answer(data, data.actions[1]), shown.data);
    const changed = (await waitFor(
      () => worker.evaluate(async () => ((await (self as any).registration.getNotifications()) as any[]).map((n) => n.body).find((body: string) => /question changed/.test(body)) ?? null),
      { what: 'the prompt_changed refusal shown' },
    ))!;
    assert.equal(changed, 'the question changed before the tap: nothing was typed; open to answer');
  });
});
