import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { launchChromium, startWeb, type WebProcess } from '../../harness/web.ts';

/** What a bench of `corral web` runs on: a folder, a daemon and a client of it, chromium, and `corral web`. */
export interface WebBench {
  dir: string;
  daemon: DaemonProcess;
  client: DaemonConnection;
  browser: Browser;
  web: WebProcess;
  dispose(): Promise<void>;
}

/**
 * Starts a bench's daemon (with `config`, the text of its config.toml, when given), chromium and
 * `corral web`, in a new folder named after `name`; `dispose` ends them all and removes the folder.
 */
export async function startWebBench(name: string, config?: string): Promise<WebBench> {
  const dir = mkdtempSync(join(tmpdir(), `corral-${name}-`));
  if (config !== undefined) writeFileSync(join(dir, 'config.toml'), config);
  const daemon = await startDaemon({ dir, ...(config !== undefined ? { args: ['--config', join(dir, 'config.toml')] } : {}) });
  const client = await DaemonConnection.connect(daemon.socket);
  const browser = await launchBenchChromium();
  const web = await startWeb(daemon);
  return {
    dir,
    daemon,
    client,
    browser,
    web,
    async dispose() {
      client.dispose();
      await browser.close();
      await web.dispose();
      await daemon.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The benches' chromium: pages in the background keep their timers and their renderers' priority. */
export function launchBenchChromium(): Promise<Browser> {
  return launchChromium(['--disable-background-timer-throttling', '--disable-renderer-backgrounding']);
}

/**
 * A desktop-sized page of `corral web`'s board in a context of its own, returned once it shows at
 * least `cards` cards; `prepare` runs before it loads (to listen to its socket).
 */
export async function openBoard(browser: Browser, url: string, cards: number, prepare?: (page: Page) => unknown): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await prepare?.(page); // a promise (an init script) is awaited before the page loads
  await page.goto(url);
  await page.waitForFunction((count) => document.querySelectorAll('#board .card').length >= count, cards, { timeout: 60_000 });
  return page;
}
