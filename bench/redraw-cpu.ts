// Daemon CPU with 100 panes redrawing a working screen at 10 Hz (bench/lib/busy-agent.sh, identified as
// Claude Code so that detection runs on each), against a tmux server running the same 100 programs
// in the same run (the baseline; skipped without tmux).
// Run: node --import tsx bench/redraw-cpu.ts   (CORRAL_BENCH_BUSY, default 100; CORRAL_BENCH_SECONDS, default 10)
import { loadavg } from 'node:os';
import { startDaemon } from '../harness/daemon.ts';
import { RawClient } from '../harness/raw-client.ts';
import { BUSY_AGENT } from './lib/programs.ts';
import { cpuShare, daemonPids, rssKiB } from '../harness/proc.ts';
import { sleep } from '../harness/wait.ts';
import { Tmux } from './lib/tmux.ts';

const BUSY = Number(process.env.CORRAL_BENCH_BUSY ?? 100);
const SECONDS = Number(process.env.CORRAL_BENCH_SECONDS ?? 10);
const WARM_MS = 3000;

async function corral(): Promise<{ cpu: number; daemonCpu: number; rssMiB: number }> {
  const daemon = await startDaemon();
  const client = await RawClient.connect(daemon.socket);
  try {
    for (let i = 0; i < BUSY; i += 1) {
      const reply = await client.call(i, 'pane.spawn', { command: 'bash', args: [BUSY_AGENT], cwd: daemon.dir, env: { CORRAL_AGENT: 'claude' } });
      if (reply.error) throw new Error(reply.error.message);
    }
    await sleep(WARM_MS);
    // The same window, read for the daemon and its pty host together and for the daemon alone.
    const [cpu, daemonCpu] = await Promise.all([cpuShare(() => daemonPids(daemon.pid), SECONDS * 1000), cpuShare(() => [daemon.pid], SECONDS * 1000)]);
    return { cpu, daemonCpu, rssMiB: rssKiB(daemon.pid) / 1024 };
  } finally {
    client.close();
    await daemon.dispose();
  }
}

async function tmux(): Promise<{ cpu: number; rssMiB: number } | null> {
  if (!Tmux.available()) return null;
  const server = new Tmux();
  try {
    server.start(`bash ${BUSY_AGENT}`);
    for (let i = 1; i < BUSY; i += 1) server.window(`bash ${BUSY_AGENT}`);
    const pid = server.pid;
    await sleep(WARM_MS);
    const cpu = await cpuShare(() => [pid], SECONDS * 1000);
    return { cpu, rssMiB: rssKiB(pid) / 1024 };
  } finally {
    server.kill();
  }
}

const ours = await corral();
const base = await tmux();
const result = {
  bench: 'redraw-cpu',
  busyPanes: BUSY,
  seconds: SECONDS,
  daemonCpu: +ours.cpu.toFixed(3),
  daemonAloneCpu: +ours.daemonCpu.toFixed(3),
  ptyHostCpu: +(ours.cpu - ours.daemonCpu).toFixed(3),
  loadAverage: +loadavg()[0]!.toFixed(1),
  daemonRssMiB: +ours.rssMiB.toFixed(1),
  tmuxCpu: base ? +base.cpu.toFixed(3) : null,
  tmuxRssMiB: base ? +base.rssMiB.toFixed(1) : null,
  ratio: base ? +(ours.cpu / base.cpu).toFixed(2) : null,
};
console.log(JSON.stringify(result));
console.log(
  `${BUSY} panes redrawing at 10 Hz: daemon and pty host ${(ours.cpu * 100).toFixed(1)}% of a core (daemon ${(ours.daemonCpu * 100).toFixed(1)}%)` +
    (base ? `, tmux server ${(base.cpu * 100).toFixed(1)}% (ratio ${result.ratio}x, goal at most 1.0x)` : '; tmux not found, no baseline') +
    `; load average ${result.loadAverage}`,
);
