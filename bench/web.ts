// `corral web` at scale: 100 panes (99 redrawing a working screen at 10 Hz, bench/lib/busy-agent.sh, and
// one that blocks on demand) and 10 pages open in Debian's chromium. It measures:
//  - a state change to the DOM: from the program drawing its permission form to the card showing
//    blocked in each of the 10 pages (a MutationObserver in the page), median and p99; and the part
//    of it before the page: the form drawn to the card's message arriving at the page;
//  - the web process's CPU share and resident memory meanwhile, and who used the CPU: the daemon (with
//    its pty host), `corral web`, Chromium (every process of it; its renderers apart) and the busy agents, without pages
//    and with them (the machine has 2 cores: what the pages cost lands on the daemon);
//  - the daemon's attention latency (form drawn to `agent.attention` at a subscriber) with no page,
//    against the same with the 10 pages open, in the same run.
// Run: node --import tsx bench/web.ts   (CORRAL_BENCH_TRIALS, default 60; CORRAL_BENCH_BUSY, default 99;
// CORRAL_BENCH_PAGES, default 10; CORRAL_BENCH_WARMUP, default 15; CORRAL_BENCH_GAP_MS, default 500).
// Every end stamps with the wall clock of bench/lib/blocking-agent.ts. CORRAL_BENCH_DUMP=FILE writes
// every trial's figures there as JSON.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EVENTS_SUBSCRIBE } from '../src/protocol/methods/events.ts';
import { PANE_GET, PANE_SEND, PANE_SPAWN } from '../src/protocol/methods/pane.ts';
import { CHROMIUM, HAVE_CHROMIUM, chromiumProcesses } from '../harness/web.ts';
import { openBoard, startWebBench } from './lib/board-pages.ts';
import { clockNow, lastStamp, writeBlockingAgent } from './lib/blocking-agent.ts';
import { eventWaiter, isBackToIdle, isBlockedAttention } from './lib/event-waiter.ts';
import { BUSY_AGENT } from './lib/programs.ts';
import { cpuSecondsOf, descendantsOf, rssKiB } from '../harness/proc.ts';
import { sleep } from '../harness/wait.ts';
import { summary } from '../harness/figures.ts';

const TRIALS = Number(process.env.CORRAL_BENCH_TRIALS ?? 60);
const BUSY = Number(process.env.CORRAL_BENCH_BUSY ?? 99);
const PAGES = Number(process.env.CORRAL_BENCH_PAGES ?? 10);
/**
 * Trials run first and not counted, in both phases: the first state changes a page draws compile its
 * code and fill its caches, and the first of the daemon's after the spawns land in their catch-up.
 */
const WARMUP = Number(process.env.CORRAL_BENCH_WARMUP ?? 15);
/**
 * The pause between one trial's end and the next's form. A trial is two state changes, each followed
 * by its card read again and its tail (src/web/card-flow.ts), which ten pages draw over the next few
 * hundred milliseconds: a shorter pause measures a change drawn behind the last one's follow-ups, a
 * rate of state changes no board of people's agents sees.
 */
const GAP_MS = Number(process.env.CORRAL_BENCH_GAP_MS ?? 500);

/**
 * In a page: record when the bench card first shows each state, by wall-clock time, and answer the
 * bench's questions about it once they hold (benchUntil): asking every 5 ms instead kept the ten
 * renderers busier than the board did.
 */
function watchCard(page: Page, id: string): Promise<void> {
  return page.evaluate((paneId) => {
    // tsx names the functions below with a helper of its own, which the page lacks.
    (globalThis as any).__name ??= (fn: unknown) => fn;
    const seen: { state: string; at: number }[] = [];
    const waiting = new Set<() => boolean>();
    (window as any).benchSeen = seen;
    (window as any).benchUntil = <T>(answer: () => T | null, ms: number) =>
      new Promise<T | null>((resolve) => {
        const check = () => {
          const value = answer();
          if (value !== null) resolve(value);
          return value !== null;
        };
        if (check()) return;
        waiting.add(check);
        setTimeout(() => waiting.delete(check) && resolve(null), ms);
      });
    let last = '';
    new MutationObserver(() => {
      const state = (document.querySelector(`#board .card[data-id="${paneId}"]`) as HTMLElement | null)?.dataset.state ?? '';
      if (state !== last) {
        last = state;
        seen.push({ state, at: performance.timeOrigin + performance.now() });
        for (const check of waiting) if (check()) waiting.delete(check);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  }, id);
}

/** Once the card shows a state other than blocked (within 10 s). */
async function seenNotBlocked(page: Page): Promise<void> {
  await page.evaluate(() => (window as any).benchUntil(() => (((window as any).benchSeen as { state: string }[]).at(-1)?.state === 'blocked' ? null : true), 10_000));
}

/** When the card first showed blocked at or after `after`, waiting up to 10 s for it; null if it did not. */
async function seenBlocked(page: Page, after: number): Promise<number | null> {
  return page.evaluate(
    (since) => (window as any).benchUntil(() => ((window as any).benchSeen as { state: string; at: number }[]).find((entry) => entry.state === 'blocked' && entry.at >= since)?.at ?? null, 10_000),
    after,
  );
}

/**
 * Before a page loads: record when a message telling a card blocked arrives on its socket (only the
 * bench's pane blocks), by wall-clock time, ahead of the page's own handler.
 */
const RECORD_ARRIVALS = `{
  const Native = WebSocket;
  window.benchArrived = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.includes('"method":"board.card"') && event.data.includes('"state":"blocked"')) window.benchArrived.push(performance.timeOrigin + performance.now());
      });
    }
  };
}`;

/** When a message telling the card blocked first arrived at or after `after`. */
async function arrivedBlocked(page: Page, after: number): Promise<number | null> {
  return page.evaluate((since) => ((window as any).benchArrived as number[]).find((at) => at >= since) ?? null, after);
}

type CpuGroups = Record<'daemon' | 'web' | 'renderers' | 'chromium' | 'agents', number[]>;

/** CPU seconds so far of each group of processes; a process that went away counts 0. */
function cpuByGroup(groups: CpuGroups): Record<keyof CpuGroups, number> {
  return {
    daemon: cpuSecondsOf(groups.daemon),
    web: cpuSecondsOf(groups.web),
    renderers: cpuSecondsOf(groups.renderers),
    chromium: cpuSecondsOf(groups.chromium),
    agents: cpuSecondsOf(groups.agents),
  };
}

/** Share of a core each group used between two readings `seconds` apart. */
function cpuShares(before: Record<keyof CpuGroups, number>, after: Record<keyof CpuGroups, number>, seconds: number): Record<keyof CpuGroups, number> {
  const share = (key: keyof CpuGroups) => Number(((after[key] - before[key]) / seconds).toFixed(3));
  return { daemon: share('daemon'), web: share('web'), renderers: share('renderers'), chromium: share('chromium'), agents: share('agents') };
}

if (!HAVE_CHROMIUM) {
  console.log(JSON.stringify({ bench: 'web', skipped: `no chromium at ${CHROMIUM}` }));
  process.exit(0);
}

const bench = await startWebBench('bench-web', '[arbiter]\ndebounce_ms = 60\n');
const { dir, daemon, client, browser, web } = bench;
const program = writeBlockingAgent(dir, 'wall');
const stampFile = join(dir, 'stamps');
const next = eventWaiter(client, clockNow('wall'));

/** What a trial measured, in ms from the form drawn: the attention event, and per page the card's message and its DOM. */
interface Trial {
  attention: number;
  dom: number[];
  arrival: number[];
}

/** One trial: the form drawn, its attention event (and its cards, with pages), back to idle. */
async function trial(pages: Page[]): Promise<Trial> {
  const arrived = await next(isBlockedAttention, () => client.call(PANE_SEND, { target: 'bench', text: 'b' }));
  const stamp = lastStamp(stampFile);
  const dom: number[] = [];
  const arrival: number[] = [];
  for (const page of pages) {
    const at = await seenBlocked(page, stamp);
    if (at === null) {
      const seen = await page.evaluate(() => ((window as any).benchSeen as { state: string; at: number }[]).slice(-4));
      throw new Error(`a page never showed the card blocked (form drawn at ${stamp}; the card's last states: ${JSON.stringify(seen)})`);
    }
    dom.push(at - stamp);
    arrival.push(((await arrivedBlocked(page, stamp)) ?? at) - stamp);
  }
  await next(isBackToIdle, () => client.call(PANE_SEND, { target: 'bench', text: 'i' }));
  // Every page shows the card idle again before the next form: the board shows the latest state, so a
  // form drawn before a page heard of the idle one would leave its card blocked throughout.
  for (const page of pages) await seenNotBlocked(page);
  await sleep(GAP_MS);
  return { attention: arrived - stamp, dom, arrival };
}

try {
  await client.call(EVENTS_SUBSCRIBE, { filter: 'pane:bench' });
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], name: `busy-${i}`, cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  await next(isBackToIdle, () => client.call(PANE_SPAWN, { command: process.execPath, args: [program], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', STAMP_FILE: stampFile } }));
  await sleep(3000); // every pane drawing and identified

  const groups = (): CpuGroups => {
    const chromiums = chromiumProcesses();
    const daemonSide = [daemon.pid, ...daemon.hostPids()];
    return {
      daemon: daemonSide,
      web: [web.child.pid!],
      renderers: chromiums.filter((proc) => proc.type === 'renderer').map((proc) => proc.pid),
      chromium: chromiums.map((proc) => proc.pid),
      agents: daemonSide.flatMap((pid) => descendantsOf(pid)).filter((proc) => proc.comm === 'bash').map((proc) => proc.pid),
    };
  };
  const without: number[] = [];
  for (let i = 0; i < WARMUP; i += 1) await trial([]);
  const idleGroups = groups();
  const idleCpuBefore = cpuByGroup(idleGroups);
  const idleStarted = performance.now();
  for (let i = 0; i < TRIALS; i += 1) without.push((await trial([])).attention);
  const cpuWithoutPages = cpuShares(idleCpuBefore, cpuByGroup(idleGroups), (performance.now() - idleStarted) / 1000);

  const pages: Page[] = [];
  for (let i = 0; i < PAGES; i += 1) pages.push(await openBoard(browser, web.url, BUSY + 1, (page) => page.addInitScript({ content: RECORD_ARRIVALS })));
  const { id } = await client.call(PANE_GET, { target: 'bench' });
  for (const page of pages) await watchCard(page, id);
  await sleep(2000);
  for (let i = 0; i < WARMUP; i += 1) await trial(pages);
  const trials: Trial[] = [];
  const pageGroups = groups();
  const pageCpuBefore = cpuByGroup(pageGroups);
  const started = performance.now();
  for (let i = 0; i < TRIALS; i += 1) trials.push(await trial(pages));
  const cpuWithPages = cpuShares(pageCpuBefore, cpuByGroup(pageGroups), (performance.now() - started) / 1000);
  const webCpu = cpuWithPages.web;
  const webRssMiB = Number((rssKiB(web.child.pid!) / 1024).toFixed(1));
  const attentionWithout = summary(without);
  const attentionWith = summary(trials.map((result) => result.attention));
  const domSummary = summary(trials.flatMap((result) => result.dom));
  const arrivalSummary = summary(trials.flatMap((result) => result.arrival));
  if (process.env.CORRAL_BENCH_DUMP) writeFileSync(process.env.CORRAL_BENCH_DUMP, JSON.stringify({ without, trials }));
  const result = {
    bench: 'web',
    panes: BUSY + 1,
    pages: PAGES,
    trials: TRIALS,
    stateChangeToDom: domSummary,
    stateChangeToPage: arrivalSummary,
    attentionWithoutPages: attentionWithout,
    attentionWithPages: attentionWith,
    attentionMedianRatio: Number((attentionWith.medianMs / attentionWithout.medianMs).toFixed(2)),
    webCpuShare: Number(webCpu.toFixed(3)),
    webRssMiB,
    cpuWithoutPages,
    cpuWithPages,
  };
  console.log(JSON.stringify(result));
  console.log(
    `${BUSY + 1} panes, ${PAGES} pages: state change to the DOM median ${domSummary.medianMs} ms, p99 ${domSummary.p99Ms} ms (goal: p99 at most 100 ms; ` +
      `its message at the page median ${arrivalSummary.medianMs} ms, p99 ${arrivalSummary.p99Ms} ms); ` +
      `attention latency median ${attentionWithout.medianMs} ms without pages, ${attentionWith.medianMs} ms with them (${result.attentionMedianRatio}x; goal: at most 1.1x); ` +
      `corral web used ${(webCpu * 100).toFixed(1)}% of a core and ${webRssMiB} MiB; ` +
      `share of a core without pages / with them: daemon ${cpuWithoutPages.daemon} / ${cpuWithPages.daemon}, web ${cpuWithoutPages.web} / ${cpuWithPages.web}, ` +
      `chromium ${cpuWithoutPages.chromium} / ${cpuWithPages.chromium} (its renderers ${cpuWithPages.renderers}), busy agents ${cpuWithoutPages.agents} / ${cpuWithPages.agents}`,
  );
} finally {
  await bench.dispose();
}
