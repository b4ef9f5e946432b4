// An event alone updates `corral top` and a card of `corral web` (docs/architecture.md, "The main flow"):
// both reach the daemon through a relay on its socket that counts every request and holds back every
// read, so neither view can wait on a read between the event and what it shows. A blocked agent's row
// and card follow its event, with the daemon asked nothing but the web board's tail read, held.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';
import { waitFor, waitForText } from '../../harness/wait.ts';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';
import { startCountingRelay, type CountingRelay } from '../helpers/counting-relay.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';

/** What a view could read an agent back by: none may stand between an event and the row or card it changes. */
const READS = ['agent.get', 'agent.list', 'agent.read', 'agent.explain', 'pane.get', 'pane.list', 'inbox.list', 'events.read'];

describe('an event alone updates top and a card, no read in between', { skip: HAVE_CHROMIUM ? false : `no chromium at ${CHROMIUM}` }, () => {
  let daemon: DaemonProcess;
  let relay: CountingRelay;
  let web: WebProcess;
  let browser: Browser;
  let call: (method: string, params?: unknown) => Promise<any>;
  const tmuxServer = `corral-event-alone-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', tmuxServer, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const topScreen = () => tmux('capture-pane', '-p', '-t', 'top');

  before(async () => {
    daemon = await startDaemon();
    ({ call } = await connectCalling(daemon));
    relay = await startCountingRelay(daemon.socket, daemon.dir);
    web = await startWeb({ ...daemon, socket: relay.socket } as DaemonProcess);
    browser = await launchChromium();
    const command = [process.execPath, CORRAL_BIN, '--socket', relay.socket, 'top'].map((word) => `'${word}'`).join(' ');
    tmux('new-session', '-d', '-s', 'top', '-x', '100', '-y', '12', command);
  });

  after(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await browser?.close();
    await web?.dispose();
    await relay?.close();
    await daemon?.dispose();
  });

  it('shows a blocked agent in top and on its card from the event, with every read held back', async () => {
    const pane = await call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'asker', cwd: daemon.dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '60000' } });
    await waitFor(async () => (await call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'asker idle', timeoutMs: 30_000 });
    const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(web.url);
    const cardState = () => page.$eval(`#board .card[data-id="${pane.id}"]`, (node) => (node as HTMLElement).dataset.state).catch(() => null);
    await waitFor(async () => (await cardState()) === 'idle', { what: 'the idle card', timeoutMs: 20_000 });
    await waitForText(topScreen, /^ idle .* asker/m, { what: "top's idle row", timeoutMs: 15_000 });

    relay.hold(READS);
    const from = relay.methods.length;
    try {
      await call('pane.send', { target: pane.id, text: 'perm', keys: ['Enter'] });
      await waitForText(topScreen, /^.blocked .* asker/m, { what: "top's blocked row", timeoutMs: 15_000 });
      await waitFor(async () => (await cardState()) === 'blocked', { what: 'the blocked card', timeoutMs: 15_000 });
      // The card shows the question its event carried (the prompt in `info`), read from nowhere else.
      assert.match((await page.textContent(`#board .card[data-id="${pane.id}"] .card-question`)) ?? '', /\S/);
      const asked = relay.methods.slice(from);
      // The one read: the web board's tail of a card on screen, asked after the event and held here unanswered.
      assert.deepEqual(asked.filter((method) => method !== 'agent.read'), [], `asked between the event and the views: ${asked.join(', ')}`);
      assert.ok(asked.filter((method) => method === 'agent.read').length <= 1, `at most the tail's one read: ${asked.join(', ')}`);
    } finally {
      relay.release();
    }
    await page.context().close();
  });
});
