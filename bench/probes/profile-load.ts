// Not a benchmark: the profile behind the load figures. Starts a daemon under `node --cpu-prof`, spawns
// busy panes (bench/lib/busy-agent.sh, identified as Claude Code), lets them run, stops the daemon and
// prints the functions with the most self time, the event loop delay the daemon saw, and its CPU.
// Run: node --import tsx bench/probes/profile-load.ts [busy panes, default 100] [seconds, default 20]
// (CORRAL_BENCH_DRAW=spinner: bench/lib/spinner-agent.sh, which redraws only its spinner row)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { BUSY_AGENT, SPINNER_AGENT } from '../lib/programs.ts';
import { connectWhenUp } from '../lib/connect-when-up.ts';
import { cpuShare, daemonPids, rssKiB } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';

const busy = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 20);
const CORRAL_BIN = fileURLToPath(new URL('../../bin/corral', import.meta.url));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const dir = mkdtempSync(join(tmpdir(), 'corral-profile-'));
try {
  const socket = join(dir, 'corral.sock');
  const profDir = join(dir, 'prof');
  writeFileSync(join(dir, 'config.toml'), '');
  const child = spawn(
    process.execPath,
    [`--cpu-prof`, `--cpu-prof-dir=${profDir}`, ...(process.env.PROFILE_GC ? ['--trace-gc'] : []), CORRAL_BIN, 'daemon', '--socket', socket, '--config', join(dir, 'config.toml'), '--log-level', 'warn'],
    { stdio: ['ignore', process.env.PROFILE_GC ? 'inherit' : 'ignore', 'inherit'], env: { ...process.env, CORRAL_LOOP_DELAY: '1' } },
  );
  const client = await connectWhenUp(socket);
  for (let i = 0; i < busy; i += 1) {
    await client.call(PANE_SPAWN, { command: 'bash', args: [process.env.CORRAL_BENCH_DRAW === 'spinner' ? SPINNER_AGENT : BUSY_AGENT], name: `busy-${i}`, cwd: dir, env: { CORRAL_AGENT: 'claude' } });
  }
  await sleep(2000);
  const cpu = await cpuShare(() => daemonPids(child.pid!), seconds * 1000);
  const rss = rssKiB(child.pid!);
  client.dispose();
  const host = daemonPids(child.pid!).slice(1);
  const stopStart = performance.now();
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  // The daemon leaves its panes running in the pty host: end the host, and the busy panes with it.
  for (const pid of host) process.kill(pid, 'SIGTERM');
  const stopUs = (performance.now() - stopStart) * 1000;
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; endTime: number };
  // Only the steady phase: the samples of the measured window, not the spawning before it.
  let at = profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0);
  const to = profile.endTime - stopUs;
  const from = to - seconds * 1e6;
  const hits = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]!;
    if (at >= from && at <= to) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  for (const node of profile.nodes) node.hitCount = hits.get(node.id) ?? 0;
  if (process.env.PROFILE_KEEP) writeFileSync(process.env.PROFILE_KEEP, JSON.stringify(profile));
  const total = [...hits.values()].reduce((a, b) => a + b, 0);
  const self = new Map<string, number>();
  for (const node of profile.nodes) {
    const where = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
    self.set(where, (self.get(where) ?? 0) + (node.hitCount ?? 0));
  }
  console.log(`${busy} busy panes for ${seconds} s: daemon CPU ${(cpu * 100).toFixed(1)}% of a core, RSS ${(rss / 1024).toFixed(0)} MiB`);
  for (const [where, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
