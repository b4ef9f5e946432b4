// Not a benchmark: CPU profiles of the daemon and its pty host while one pane prints a large mixed
// stream (the one-pane half of bench/ingest.ts), and a summary of where their time went.
// Run: node --import tsx bench/probes/ingest-profile.ts [MiB, default 20] [profile folder, default a temporary one]
// With PROFILE_HOST=1 the pty host is started first, under --cpu-prof too, and the daemon attaches to it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PANE_LIST, PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { CORRAL_BIN, testEnv } from '../../harness/daemon.ts';
import { lockFilePath } from '../../src/terminal/pty-host/daemon-lock.ts';
import { hostSocketPath } from '../../src/terminal/pty-host/launch.ts';
import { connectWhenUp } from '../lib/connect-when-up.ts';
import { cpuSeconds, daemonPids } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';
import { writeMixedFile } from '../lib/mixed-output.ts';

const MB = Number(process.argv[2] ?? 20);
const dir = mkdtempSync(join(tmpdir(), 'corral-ingest-profile-'));
const profiles = process.argv[3] ?? join(dir, 'profiles');
mkdirSync(profiles, { recursive: true });
try {
  const { path } = writeMixedFile(dir, MB);
  const socket = join(dir, 'corral.sock');
  writeFileSync(join(dir, 'config.toml'), '');
  // --cpu-prof is refused in NODE_OPTIONS: the daemon (and the host, when asked) is started by hand.
  const env = { ...process.env, ...testEnv(dir) };
  if (process.env.PROFILE_HOST) {
    const hostMain = new URL('../../src/terminal/pty-host/main.ts', import.meta.url).pathname;
    spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--import', 'tsx', hostMain, '--socket', hostSocketPath(socket), '--lock', lockFilePath(socket)], { stdio: 'ignore', env, detached: true }).unref();
    for (let i = 0; i < 200 && !existsSync(hostSocketPath(socket)); i++) await sleep(50);
  }
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, CORRAL_BIN, 'daemon', '--socket', socket, '--config', join(dir, 'config.toml'), '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  const client = await connectWhenUp(socket);
  await client.call(PANE_SPAWN, { command: 'true', args: [], cwd: dir });
  await sleep(1000);
  const pids = daemonPids(child.pid!);
  if (pids.length < 2) pids.push(...readdirSync('/proc').filter((p) => /^\d+$/.test(p) && commandLine(p).includes(hostSocketPath(socket))).map(Number));
  const cpuBefore = pids.map(cpuSeconds);
  const load = loadavg()[0]!;
  const start = performance.now();
  const pane = (await client.call(PANE_SPAWN, { command: 'bash', args: ['-c', `stty raw -echo; cat '${path}'`], cwd: dir })) as { id: string };
  while ((await client.call(PANE_LIST, {})).panes.find((p: { id: string }) => p.id === pane.id)!.state === 'running') await sleep(20);
  const seconds = (performance.now() - start) / 1000;
  const cpu = pids.map((pid, i) => +(cpuSeconds(pid) - cpuBefore[i]!).toFixed(2));
  client.dispose();
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  for (const pid of pids.slice(1)) process.kill(pid, 'SIGTERM');
  await sleep(1000); // the host writes its profile as it exits
  console.log(JSON.stringify({ MiB: MB, seconds: +seconds.toFixed(2), MiBps: +(MB / seconds).toFixed(1), cpuSeconds: { daemon: cpu[0], host: cpu[1] }, load: [load, loadavg()[0]!].map((l) => +l.toFixed(1)) }));
  for (const file of readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile'))) console.log(file, summarise(join(profiles, file)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Self time by function (top 25) and by script, in ms. */
function summarise(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((sample, i) => {
    const node = byId.get(sample)!;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = node.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    total += ms;
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return `total ${total.toFixed(0)} ms\n` + top.map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
}
