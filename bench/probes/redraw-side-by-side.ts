// Not a benchmark: this checkout's daemon against another checkout's (CORRAL_OTHER_CHECKOUT, which must
// have its node_modules and native addon) and a tmux server, each running N busy panes
// (bench/lib/busy-agent.sh) in the same window, so that the load of a shared machine is the same for
// all three; CPU per frame drawn (each side's screens read at the start and the end of the window).
// The daemon started second reads about 1-2% more in a run of one checkout against itself.
// Run: CORRAL_OTHER_CHECKOUT=/path/to/main node --import tsx bench/probes/redraw-side-by-side.ts [panes, default 50] [seconds, default 20]
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { startDaemon } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { BUSY_AGENT, SPINNER_AGENT, lastFrame } from '../lib/programs.ts';

/** CORRAL_BENCH_DRAW=spinner: the program that redraws only its spinner row (bench/lib/spinner-agent.sh). */
const PROGRAM = process.env.CORRAL_BENCH_DRAW === 'spinner' ? SPINNER_AGENT : BUSY_AGENT;
import { cpuSeconds, daemonPids } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';
import { Tmux } from '../lib/tmux.ts';

const PANES = Number(process.argv[2] ?? 50);
const SECONDS = Number(process.argv[3] ?? 20);
const other = process.env.CORRAL_OTHER_CHECKOUT;
if (!other) throw new Error('set CORRAL_OTHER_CHECKOUT to the checkout to compare with');
const { startDaemon: startOther } = (await import(join(other, 'harness/daemon.ts'))) as { startDaemon: typeof startDaemon };


interface Side {
  frames(): Promise<number>;
  cpu(): number;
  dispose(): Promise<void>;
}

async function daemonSide(start: typeof startDaemon): Promise<Side> {
  const daemon = await start();
  const client = await RawClient.connect(daemon.socket);
  const ids: string[] = [];
  for (let i = 0; i < PANES; i++) {
    ids.push((await client.call(i, 'pane.spawn', { command: 'bash', args: [PROGRAM], cwd: daemon.dir, env: { CORRAL_AGENT: 'claude' } })).result.id);
  }
  return {
    async frames() {
      let sum = 0;
      for (const id of ids) sum += lastFrame(PROGRAM, (await client.call(0, 'pane.read', { target: id, source: 'screen' })).result?.text ?? '');
      return sum;
    },
    cpu: () => daemonPids(daemon.pid).reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    async dispose() {
      client.close();
      await daemon.dispose();
    },
  };
}

function tmuxSide(): Side {
  const server = new Tmux();
  server.start(`bash ${PROGRAM}`);
  for (let i = 1; i < PANES; i++) server.window(`bash ${PROGRAM}`);
  const pid = server.pid;
  return {
    async frames() {
      let sum = 0;
      for (let i = 0; i < PANES; i++) sum += lastFrame(PROGRAM, server.run('capture-pane', '-p', '-t', `:${i}`));
      return sum;
    },
    cpu: () => cpuSeconds(pid),
    async dispose() {
      server.kill();
    },
  };
}

const sides: [string, Side][] = [
  ['other', await daemonSide(startOther)],
  ['this', await daemonSide(startDaemon)],
  ['tmux', tmuxSide()],
];
try {
  await sleep(3000);
  const frames0 = await Promise.all(sides.map(([, side]) => side.frames()));
  const cpu0 = sides.map(([, side]) => side.cpu());
  await sleep(SECONDS * 1000);
  const cpu1 = sides.map(([, side]) => side.cpu());
  const frames1 = await Promise.all(sides.map(([, side]) => side.frames()));
  const usPerFrame = sides.map((_, i) => ((cpu1[i]! - cpu0[i]!) * 1e6) / (frames1[i]! - frames0[i]!));
  console.log(
    JSON.stringify({
      panes: PANES,
      seconds: SECONDS,
      load: +loadavg()[0]!.toFixed(1),
      cpuShare: Object.fromEntries(sides.map(([name], i) => [name, +((cpu1[i]! - cpu0[i]!) / SECONDS).toFixed(3)])),
      usPerFrame: Object.fromEntries(sides.map(([name], i) => [name, Math.round(usPerFrame[i]!)])),
      thisOverOther: +(usPerFrame[1]! / usPerFrame[0]!).toFixed(2),
      otherOverTmux: +(usPerFrame[0]! / usPerFrame[2]!).toFixed(2),
      thisOverTmux: +(usPerFrame[1]! / usPerFrame[2]!).toFixed(2),
    }),
  );
} finally {
  for (const [, side] of sides) await side.dispose();
}
