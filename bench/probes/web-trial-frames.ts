// What one state change costs a page of `corral web`: the bench's trial (bench/web.ts: a form drawn,
// the card blocked, back to idle) repeated, with the messages each page received per trial by method,
// and a trace of the pages (frames drawn, paints, layouts, raster and main-thread time per trial),
// and the renderers' CPU seconds per trial. Run:
// node --import tsx bench/probes/web-trial-frames.ts [busy=20] [pages=2] [trials=10]
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EVENTS_SUBSCRIBE } from '../../src/protocol/methods/events.ts';
import { PANE_SEND, PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { chromiumProcesses } from '../../harness/web.ts';
import { openBoard, startWebBench } from '../lib/board-pages.ts';
import { clockNow, writeBlockingAgent } from '../lib/blocking-agent.ts';
import { eventWaiter, isBackToIdle, isBlockedAttention } from '../lib/event-waiter.ts';
import { BUSY_AGENT } from '../lib/programs.ts';
import { cpuSecondsOf, rssKiB } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';

const BUSY = Number(process.argv[2] ?? 20);
const PAGES = Number(process.argv[3] ?? 2);
const TRIALS = Number(process.argv[4] ?? 10);
/** After each change, how long the pages are left to draw its follow-ups before the next one. */
const SETTLE_MS = 1000;

const bench = await startWebBench('probe-frames', '[arbiter]\ndebounce_ms = 60\n');
const { dir, client, browser, web } = bench;
const program = writeBlockingAgent(dir, 'wall');
const next = eventWaiter(client, clockNow('wall'));
const counting = { on: false };
const messages: Record<string, number> = {};
try {
  await client.call(EVENTS_SUBSCRIBE, { filter: 'pane:bench' });
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], name: `busy-${i}`, cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  await next(isBackToIdle, () => client.call(PANE_SPAWN, { command: process.execPath, args: [program], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', STAMP_FILE: join(dir, 'stamps') } }));
  const pages: Page[] = [];
  for (let i = 0; i < PAGES; i += 1) {
    pages.push(await openBoard(browser, web.url, BUSY + 1, (page) => page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
      if (!counting.on) return;
      const method = /"method":"([^"]+)"/.exec(String(payload))?.[1] ?? 'reply';
      messages[method] = (messages[method] ?? 0) + 1;
    }))));
  }
  await sleep(3000);
  const renderers = chromiumProcesses().filter((proc) => proc.type === 'renderer').map((proc) => proc.pid);
  const rendererCpu = () => cpuSecondsOf(renderers);

  /** The same window with no state change: what the busy cards and the clock cost by themselves. */
  async function window(change: boolean): Promise<object> {
    for (const key of Object.keys(messages)) delete messages[key];
    await browser.startTracing(pages[0], { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame'] });
    const cpuBefore = rendererCpu();
    counting.on = true;
    const started = performance.now();
    for (let i = 0; i < TRIALS; i += 1) {
      if (change) await next(isBlockedAttention, () => client.call(PANE_SEND, { target: 'bench', text: 'b' }));
      await sleep(SETTLE_MS);
      if (change) await next(isBackToIdle, () => client.call(PANE_SEND, { target: 'bench', text: 'i' }));
      await sleep(SETTLE_MS);
    }
    const seconds = (performance.now() - started) / 1000;
    counting.on = false;
    const cpu = rendererCpu() - cpuBefore;
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: { data?: { functionName?: string; url?: string } } }[] };
    // CORRAL_PROBE_TIMELINE=1: the main thread's frames and tasks of the last trial, in ms from its start.
    if (process.env.CORRAL_PROBE_TIMELINE && change) {
      const main = trace.traceEvents.filter((event) => ['BeginMainThreadFrame', 'FireAnimationFrame', 'Layout', 'Paint', 'TimerFire', 'FunctionCall', 'EventDispatch', 'DrawFrame', 'IntersectionObserverController::computeIntersections'].includes(event.name));
      const end = Math.max(...main.map((event) => event.ts));
      const last = main.filter((event) => event.ts > end - SETTLE_MS * 2000 && event.name !== 'Paint');
      console.error(last.map((event) => `${((event.ts - last[0]!.ts) / 1000).toFixed(1)} ${event.name} ${((event.dur ?? 0) / 1000).toFixed(2)}`).join('\n'));
    }
    const counts: Record<string, { n: number; ms: number }> = {};
    for (const event of trace.traceEvents) {
      if (!['DrawFrame', 'BeginFrame', 'BeginMainThreadFrame', 'Paint', 'Layout', 'UpdateLayoutTree', 'RasterTask', 'CompositeLayers', 'UpdateLayer', 'PrePaint', 'Layerize', 'FireAnimationFrame', 'TimerFire', 'EventDispatch', 'FunctionCall'].includes(event.name)) continue;
      const entry = (counts[event.name] ??= { n: 0, ms: 0 });
      if (event.ph === 'X' || event.ph === 'I' || event.ph === 'B' || event.ph === 'i') entry.n++;
      entry.ms += (event.dur ?? 0) / 1000;
    }
    const per = (value: number) => Number((value / TRIALS).toFixed(2));
    return {
      change,
      seconds: Number(seconds.toFixed(1)),
      messagesPerTrialPerPage: Object.fromEntries(Object.entries(messages).map(([key, n]) => [key, per(n / PAGES)])),
      // The trace is the browser's: every page's renderer is in it.
      tracePerTrialPerPage: Object.fromEntries(Object.entries(counts).map(([key, { n, ms }]) => [key, { n: per(n / PAGES), ms: per(ms / PAGES) }])),
      rendererCpuMsPerTrialPerPage: per((cpu * 1000) / PAGES),
    };
  }
  const quiet = await window(false);
  const trials = await window(true);
  const rendererRssMiB = Number((renderers.reduce((sum, pid) => sum + rssKiB(pid), 0) / 1024 / PAGES).toFixed(1));
  console.log(JSON.stringify({ busy: BUSY, pages: PAGES, trials: TRIALS, settleMs: SETTLE_MS, rendererRssMiB, quiet, trials_: trials }, null, 1));
} finally {
  await bench.dispose();
}
