import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../harness/web.ts';

/** The benches' chromium: pages in the background keep their timers and their renderers' priority. */
export function launchBenchChromium(): Promise<Browser> {
  return launchChromium(['--disable-background-timer-throttling', '--disable-renderer-backgrounding']);
}

/**
 * A desktop-sized page of `corral web`'s board in a context of its own, returned once it shows at
 * least `cards` cards; `prepare` runs before it loads (to listen to its socket).
 */
export async function openBoard(browser: Browser, url: string, cards: number, prepare?: (page: Page) => void): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  prepare?.(page);
  await page.goto(url);
  await page.waitForFunction((count) => document.querySelectorAll('#board .card').length >= count, cards, { timeout: 60_000 });
  return page;
}
