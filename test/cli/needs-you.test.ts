// "Needs you" has one meaning (src/protocol/states.ts, needsYou) and so one number in every view:
// top, the web page (in Chromium, when the machine has it), `host list` and `agent list --fleet`, of
// one daemon. A blocked agent counts while blocked, even once its reminder was dismissed; a done
// agent until it is seen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeTempDir } from '../../harness/daemon.ts';
import { waitFor } from '../../harness/wait.ts';
import { HAVE_CHROMIUM, launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';
import { runCli } from '../helpers/cli.ts';
import { useDaemon } from '../helpers/session.ts';

describe('"needs you" is the same number in top, web, host list and agent list --fleet', () => {
  const session = useDaemon();
  let web: WebProcess | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;

  before(async () => {
    if (!HAVE_CHROMIUM) return;
    web = await startWeb(session.daemon);
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(web.url);
    await page.waitForFunction(() => (window as any).corral?.connected() === true, null, { timeout: 20_000 });
  });

  after(async () => {
    await browser?.close();
    await web?.dispose();
  });

  const counts = async () => {
    const env = { ...process.env, XDG_CONFIG_HOME: makeTempDir('corral-needs-'), CORRAL_SOCKET: session.daemon.socket, CORRAL_HOST: undefined, CORRAL_SSH: undefined };
    const run = async (...args: string[]) => {
      const result = await runCli(args, { env });
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      return result.stdout;
    };
    const top = /(\d+) needs? you/.exec((await run('top', '--once', '--cols', '200')).split('\n')[0]!)?.[1] ?? '0';
    const hosts = JSON.parse(await run('host', 'list', '--json')) as { fleet: { needsYou: number } };
    const fleet = JSON.parse(await run('agent', 'list', '--fleet', '--json')) as { fleet: { needsYou: number } };
    const counted = { top: Number(top), hostList: hosts.fleet.needsYou, agentListFleet: fleet.fleet.needsYou };
    if (page === undefined) return counted;
    // The page is live: it shows the number once the events that made it arrived (the states stand still meanwhile).
    const shown = () => page!.$eval('#needs', (node) => Number((node as HTMLElement).dataset.count ?? 0));
    await waitFor(async () => (await shown()) === counted.top, { what: `the page's count, ${counted.top}`, timeoutMs: 10_000 }).catch(() => {});
    return { ...counted, web: await shown() };
  };
  /** The same number in every view (the web page's too, where Chromium runs). */
  const every = (n: number) => ({ top: n, hostList: n, agentListFleet: n, ...(page !== undefined ? { web: n } : {}) });

  it('counts blocked agents while blocked, dismissed or not, and done ones until seen', async () => {
    const blocked = await session.fakeAgent(60_000, { name: 'asking' });
    const done = await session.fakeAgent(200, { name: 'finished' });
    const idle = await session.fakeAgent(200, { name: 'quiet' });
    await session.call('pane.send', { target: blocked, text: 'perm', keys: ['Enter'] });
    await session.agentUntil(blocked, (info) => info.state === 'blocked', 'blocked', 15_000);
    await session.call('pane.send', { target: done, text: 'go', keys: ['Enter'] });
    await session.agentUntil(done, (info) => info.state === 'done', 'done', 15_000);
    await session.call('agent.focus', { target: idle });
    await session.agentUntil(idle, (info) => info.state === 'idle', 'idle once seen');
    assert.deepEqual(await counts(), every(2));

    // The blocked agent's reminder dismissed on purpose: it is still blocked, and still needs you.
    const item = (await session.call('inbox.list', {})).items.find((entry: any) => entry.pane.id === blocked);
    await session.call('inbox.ack', { ids: [item.id] });
    assert.deepEqual(await counts(), every(2));

    // The done one seen: it no longer does.
    await session.call('agent.focus', { target: done });
    await session.agentUntil(done, (info) => info.state === 'idle', 'done seen');
    assert.deepEqual(await counts(), every(1));
  });
});
