// Where one page of `corral web` spends its time with many working agents: the messages it receives
// by method, the renderer's CPU by category (CDP Performance metrics), over a steady window.
// Run: node --import tsx bench/probes/web-page-cost.ts [busy=99] [pages=1] [seconds=10]
import { PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { chromiumProcesses } from '../../harness/web.ts';
import { openBoard, startWebBench } from '../lib/board-pages.ts';
import { BUSY_AGENT } from '../lib/programs.ts';
import { cpuSecondsOf } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';

const BUSY = Number(process.argv[2] ?? 99);
const PAGES = Number(process.argv[3] ?? 1);
const SECONDS = Number(process.argv[4] ?? 10);
const bench = await startWebBench('probe-web');
const { dir, daemon, client, browser, web } = bench;
try {
  for (let i = 0; i < BUSY; i += 1) await client.call(PANE_SPAWN, { command: 'bash', args: [BUSY_AGENT], name: `busy-${i}`, cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  const counts: Record<string, { n: number; bytes: number }> = {};
  const pages = [];
  for (let i = 0; i < PAGES; i += 1) {
    pages.push(await openBoard(browser, web.url, BUSY, (page) => page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      const method = /"method":"([^"]+)"/.exec(text)?.[1] ?? 'reply';
      const entry = (counts[method] ??= { n: 0, bytes: 0 });
      entry.n++;
      entry.bytes += text.length;
    }))));
  }
  await sleep(3000);
  for (const key of Object.keys(counts)) delete counts[key];
  const sessions = await Promise.all(pages.map(async (page) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    return cdp;
  }));
  const metrics = async () => Promise.all(sessions.map(async (cdp) => Object.fromEntries(((await cdp.send('Performance.getMetrics')).metrics as { name: string; value: number }[]).map((m) => [m.name, m.value]))));
  const chromiums = chromiumProcesses();
  const g = { chromium: chromiums.map((proc) => proc.pid), daemon: [daemon.pid, ...daemon.hostPids()], web: [web.child.pid!] };
  const read = cpuSecondsOf;
  const types = new Map<string, number[]>();
  for (const { pid, type } of chromiums) types.set(type, [...(types.get(type) ?? []), pid]);
  const typeBefore = new Map([...types].map(([type, pids]) => [type, read(pids)]));
  const before = { chromium: read(g.chromium), daemon: read(g.daemon), web: read(g.web) };
  const m0 = await metrics();
  const start = performance.now();
  await sleep(SECONDS * 1000);
  const elapsed = (performance.now() - start) / 1000;
  const m1 = await metrics();
  const after = { chromium: read(g.chromium), daemon: read(g.daemon), web: read(g.web) };
  const per = (key: string) => Number((m1.reduce((s, m, i) => s + m[key]! - m0[i]![key]!, 0) / elapsed / PAGES).toFixed(4));
  console.log(JSON.stringify({
    busy: BUSY, pages: PAGES, seconds: Number(elapsed.toFixed(1)),
    messagesPerSecondPerPage: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, { n: Number((v.n / elapsed / PAGES).toFixed(2)), kib: Number((v.bytes / 1024 / elapsed / PAGES).toFixed(1)) }])),
    chromiumByType: Object.fromEntries([...types].map(([type, pids]) => [`${type} x${pids.length}`, Number(((read(pids) - typeBefore.get(type)!) / elapsed).toFixed(3))])),
    cpuShare: { chromium: Number(((after.chromium - before.chromium) / elapsed).toFixed(3)), daemon: Number(((after.daemon - before.daemon) / elapsed).toFixed(3)), web: Number(((after.web - before.web) / elapsed).toFixed(3)) },
    perPageSecondsPerSecond: { script: per('ScriptDuration'), layout: per('LayoutDuration'), style: per('RecalcStyleDuration'), task: per('TaskDuration'), layoutCount: per('LayoutCount'), styleCount: per('RecalcStyleCount') },
  }));
} finally {
  await bench.dispose();
}
