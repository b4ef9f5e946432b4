// Daemon CPU with 100 panes redrawing a working screen at 10 Hz (bench/lib/busy-agent.sh, identified as
// Claude Code so that detection runs on each), against a tmux server running the same 100 programs
// in the same run (the baseline; skipped without tmux).
// Two ways of drawing, one after the other: `screen`, every frame clears and redraws the whole screen
// (bench/lib/busy-agent.sh, the most work per frame); `spinner`, the screen once, then only the
// spinner's row, as the recorded agents of test/fixtures/streams/ draw (bench/lib/spinner-agent.sh).
// Run: node --import tsx bench/redraw-cpu.ts   (CORRAL_BENCH_BUSY, default 100; CORRAL_BENCH_SECONDS, default 10;
// CORRAL_BENCH_DRAW=screen or spinner, one of them only)
//
// On a loaded machine the programs draw fewer than 10 frames a second, and not as many in Corral's
// window as in tmux's: each side also counts the frames its panes drew meanwhile (the busy agent
// numbers its lines; each screen is read at the start and at the end of the window), and the ratio of
// CPU per frame is given beside the ratio of CPU shares.
import { loadavg } from 'node:os';
import { startDaemon } from '../harness/daemon.ts';
import { RawClient } from '../harness/raw-client.ts';
import { BUSY_AGENT, SPINNER_AGENT, lastFrame } from './lib/programs.ts';
import { cpuShare, daemonPids, rssKiB } from '../harness/proc.ts';
import { sleep } from '../harness/wait.ts';
import { Tmux } from './lib/tmux.ts';

const BUSY = Number(process.env.CORRAL_BENCH_BUSY ?? 100);
const SECONDS = Number(process.env.CORRAL_BENCH_SECONDS ?? 10);
const WARM_MS = 3000;
type Draw = 'screen' | 'spinner';
const DRAWS: Draw[] = process.env.CORRAL_BENCH_DRAW === 'spinner' ? ['spinner'] : process.env.CORRAL_BENCH_DRAW === 'screen' ? ['screen'] : ['screen', 'spinner'];
let PROGRAM = BUSY_AGENT;


/**
 * Frames a second the panes drew over a window of `ms` starting now: every screen read at its start
 * and again at its end. Screen k is read at the same point of each sweep, so each pane is counted
 * over the time between the two sweeps' starts.
 */
async function countFrames(read: () => Promise<number>, ms: number): Promise<number> {
  const startedAt = performance.now();
  const before = await read();
  await sleep(Math.max(0, ms - (performance.now() - startedAt)));
  const endedAt = performance.now();
  const after = await read();
  return (after - before) / ((endedAt - startedAt) / 1000);
}

async function corral(): Promise<{ cpu: number; daemonCpu: number; rssMiB: number; framesPerSecond: number }> {
  const daemon = await startDaemon();
  const client = await RawClient.connect(daemon.socket);
  const ids: string[] = [];
  try {
    for (let i = 0; i < BUSY; i += 1) {
      const reply = await client.call(i, 'pane.spawn', { command: 'bash', args: [PROGRAM], cwd: daemon.dir, env: { CORRAL_AGENT: 'claude' } });
      if (reply.error) throw new Error(reply.error.message);
      ids.push(reply.result.id);
    }
    await sleep(WARM_MS);
    const read = async () => {
      let sum = 0;
      for (const id of ids) sum += lastFrame(PROGRAM, (await client.call(0, 'pane.read', { target: id, source: 'screen' })).result?.text ?? '');
      return sum;
    };
    // The same window, read for the daemon and its pty host together and for the daemon alone.
    const counted = countFrames(read, SECONDS * 1000);
    const [cpu, daemonCpu] = await Promise.all([cpuShare(() => daemonPids(daemon.pid), SECONDS * 1000), cpuShare(() => [daemon.pid], SECONDS * 1000)]);
    return { cpu, daemonCpu, rssMiB: rssKiB(daemon.pid) / 1024, framesPerSecond: await counted };
  } finally {
    client.close();
    await daemon.dispose();
  }
}

async function tmux(): Promise<{ cpu: number; rssMiB: number; framesPerSecond: number } | null> {
  if (!Tmux.available()) return null;
  const server = new Tmux();
  try {
    server.start(`bash ${PROGRAM}`);
    for (let i = 1; i < BUSY; i += 1) server.window(`bash ${PROGRAM}`);
    const pid = server.pid;
    await sleep(WARM_MS);
    const read = async () => {
      let sum = 0;
      for (let i = 0; i < BUSY; i += 1) sum += lastFrame(PROGRAM, server.run('capture-pane', '-p', '-t', `:${i}`));
      return sum;
    };
    const counted = countFrames(read, SECONDS * 1000);
    const cpu = await cpuShare(() => [pid], SECONDS * 1000);
    return { cpu, rssMiB: rssKiB(pid) / 1024, framesPerSecond: await counted };
  } finally {
    server.kill();
  }
}

for (const DRAW of DRAWS) {
  // The programs read it when they are started, in corral() and tmux().
  PROGRAM = DRAW === 'spinner' ? SPINNER_AGENT : BUSY_AGENT;
  const ours = await corral();
  const base = await tmux();
  const result = {
    bench: 'redraw-cpu',
    draw: DRAW,
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
    framesPerSecond: Math.round(ours.framesPerSecond),
    tmuxFramesPerSecond: base ? Math.round(base.framesPerSecond) : null,
    /** Core-milliseconds per 1000 frames drawn, and their ratio: the figure that does not move with the programs' pace. */
    cpuMsPerKiloFrame: +((ours.cpu * 1e6) / ours.framesPerSecond).toFixed(1),
    tmuxCpuMsPerKiloFrame: base ? +((base.cpu * 1e6) / base.framesPerSecond).toFixed(1) : null,
    perFrameRatio: base ? +((ours.cpu / ours.framesPerSecond) / (base.cpu / base.framesPerSecond)).toFixed(2) : null,
  };
  console.log(JSON.stringify(result));
  console.log(
    `${BUSY} panes redrawing ${DRAW === 'spinner' ? 'a spinner row' : 'the whole screen'} at 10 Hz: daemon and pty host ${(ours.cpu * 100).toFixed(1)}% of a core (daemon ${(ours.daemonCpu * 100).toFixed(1)}%)` +
      (base
        ? `, tmux server ${(base.cpu * 100).toFixed(1)}% (ratio ${result.ratio}x, goal at most 0.8x); frames drawn ${result.framesPerSecond}/s against ${result.tmuxFramesPerSecond}/s, CPU per frame ${result.perFrameRatio}x tmux's`
        : '; tmux not found, no baseline') +
      `; load average ${result.loadAverage}`,
  );
}
