// Memory per pane: the daemon's and its pty host's RSS together, per pane, for panes that printed 1,200
// lines of 100 columns and then sit still, and for idle panes that printed nothing; against a tmux
// server holding the same panes with history-limit 1000, in the same run. Each is read twice: 3 s after
// the output ended, and again after REST_MS more with nothing happening, against a base also read after
// REST_MS at rest. The first reading holds the output's garbage not collected yet; by the second, V8's
// memory reducer (which runs some seconds after the allocation rate falls) has collected it and given
// back the pages it freed, and the allocator has been trimmed: what a pane at rest costs.
// Run: node --import tsx bench/pane-memory.ts   (CORRAL_BENCH_PANES, default 40)
import { loadavg } from 'node:os';
import { startDaemon } from '../harness/daemon.ts';
import { LineClient, resultCaller } from '../harness/line-client.ts';
import { daemonPids, rssKiB } from '../harness/proc.ts';
import { sleep } from '../harness/wait.ts';
import { Tmux } from './lib/tmux.ts';

const PANES = Number(process.env.CORRAL_BENCH_PANES ?? 40);
const LINES = 1200;
const SETTLE_MS = 3000;
const REST_MS = Number(process.env.CORRAL_BENCH_REST_MS ?? 30_000);

/** Prints LINES numbered lines of 100 columns, then sits still. */
const PRINTER = `for ((i = 1; i <= ${LINES}; i++)); do printf '%06d %s\\n' "$i" "$(printf 'x%.0s' {1..93})"; done; exec sleep 100000`;

interface Reading {
  baseKiB: number;
  /** The base after REST_MS at rest, against which the rested reading is compared. */
  restedBaseKiB: number;
  loadedKiB: number;
  /** The same after REST_MS more at rest. */
  restedKiB: number;
  /** The daemon's own part of the growth (the rest is the pty host's), at both readings. */
  daemonGrowthKiB?: number;
  daemonRestedGrowthKiB?: number;
}

async function corral(script: string): Promise<Reading> {
  const daemon = await startDaemon();
  const client = await LineClient.connect(daemon.socket);
  const call = resultCaller(client);
  const memory = () => daemonPids(daemon.pid).reduce((sum, pid) => sum + rssKiB(pid), 0);
  try {
    // One pane first, so the host is running and the emulator's code is loaded in the baseline.
    await call('pane.spawn', { command: 'sleep', args: ['100000'], cwd: daemon.dir });
    await sleep(SETTLE_MS);
    const baseKiB = memory();
    const daemonBaseKiB = rssKiB(daemon.pid);
    // The start's own garbage is collected at rest too: the rested readings are compared with this.
    await sleep(REST_MS);
    const restedBaseKiB = memory();
    const daemonRestedBaseKiB = rssKiB(daemon.pid);
    const ids: string[] = [];
    for (let i = 0; i < PANES; i += 1) ids.push((await call('pane.spawn', { command: 'bash', args: ['-c', script], cwd: daemon.dir })).id);
    if (script.includes('printf')) {
      // Wait for every pane's last line to be on its screen.
      for (const target of ids) {
        for (let i = 0; i < 600 && !(await call('pane.read', { target, source: 'screen' })).text.includes(String(LINES).padStart(6, '0')); i += 1) await sleep(100);
      }
    }
    await sleep(SETTLE_MS);
    const loadedKiB = memory();
    const daemonGrowthKiB = rssKiB(daemon.pid) - daemonBaseKiB;
    await sleep(REST_MS);
    return { baseKiB, restedBaseKiB, loadedKiB, daemonGrowthKiB, restedKiB: memory(), daemonRestedGrowthKiB: rssKiB(daemon.pid) - daemonRestedBaseKiB };
  } finally {
    client.destroy();
    await daemon.dispose();
  }
}

async function tmux(script: string): Promise<Reading | null> {
  if (!Tmux.available()) return null;
  const server = new Tmux();
  try {
    server.start('sleep 100000', 1000);
    await sleep(SETTLE_MS);
    const baseKiB = rssKiB(server.pid);
    await sleep(REST_MS);
    const restedBaseKiB = rssKiB(server.pid);
    for (let i = 0; i < PANES; i += 1) server.window(`bash -c "${script.replace(/"/g, '\\"').replace(/\$/g, '\\$')}"`);
    await sleep(SETTLE_MS * 2);
    const loadedKiB = rssKiB(server.pid);
    await sleep(REST_MS);
    return { baseKiB, restedBaseKiB, loadedKiB, restedKiB: rssKiB(server.pid) };
  } finally {
    server.kill();
  }
}

const perPane = (m: Reading | null, rested = false) => (m === null ? null : Math.round((rested ? m.restedKiB - m.restedBaseKiB : m.loadedKiB - m.baseKiB) / PANES));
const daemonPart = (m: Reading, rested = false) => Math.round(((rested ? m.daemonRestedGrowthKiB : m.daemonGrowthKiB) ?? 0) / PANES);
const load = [loadavg()[0]!];
const printedReading = await corral(PRINTER);
const idleReading = await corral('exec sleep 100000');
const tmuxPrintedReading = await tmux(PRINTER);
const tmuxIdleReading = await tmux('exec sleep 100000');
load.push(loadavg()[0]!);
const result = {
  bench: 'pane-memory',
  panes: PANES,
  lines: LINES,
  restSeconds: REST_MS / 1000,
  perPaneAfterLinesKiB: perPane(printedReading),
  perPaneAfterLinesRestedKiB: perPane(printedReading, true),
  perPaneIdleKiB: perPane(idleReading),
  perPaneIdleRestedKiB: perPane(idleReading, true),
  daemonPartAfterLinesKiB: daemonPart(printedReading),
  daemonPartAfterLinesRestedKiB: daemonPart(printedReading, true),
  daemonPartIdleKiB: daemonPart(idleReading),
  daemonPartIdleRestedKiB: daemonPart(idleReading, true),
  tmuxPerPaneAfterLinesKiB: perPane(tmuxPrintedReading),
  tmuxPerPaneAfterLinesRestedKiB: perPane(tmuxPrintedReading, true),
  tmuxPerPaneIdleKiB: perPane(tmuxIdleReading),
  tmuxPerPaneIdleRestedKiB: perPane(tmuxIdleReading, true),
  loadAverage: load.map((l) => +l.toFixed(1)),
};
console.log(JSON.stringify(result));
const r = result;
console.log(
  `memory per pane (daemon and pty host RSS), 3 s after the output / after ${r.restSeconds} s more at rest: ` +
    `${r.perPaneAfterLinesKiB} / ${r.perPaneAfterLinesRestedKiB} KiB after ${LINES} lines (goal at most 1536), ` +
    `${r.perPaneIdleKiB} / ${r.perPaneIdleRestedKiB} KiB idle (goal at most 256)` +
    (tmuxPrintedReading === null
      ? '; tmux not found, no baseline'
      : `; tmux with history-limit 1000: ${r.tmuxPerPaneAfterLinesKiB} / ${r.tmuxPerPaneAfterLinesRestedKiB} KiB after ${LINES} lines, ${r.tmuxPerPaneIdleKiB} / ${r.tmuxPerPaneIdleRestedKiB} KiB idle`) +
    `; load average ${result.loadAverage.join(' to ')}`,
);
