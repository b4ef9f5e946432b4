// Not a benchmark: the peak memory of `corral host list`, `corral agent list --fleet` and `corral web
// --fleet` when one host of the fleet is hostile (test/fixtures/hostile-host.mjs, reached through its
// own sshd), beside the same commands against a normal host. test/fleet/hostile-host.test.ts holds the
// bound; this prints the figures (docs/fleet.md, "A host that breaks the protocol").
// Run: node --import tsx bench/probes/hostile-host.ts [mode,mode,...] (default line,reply,flood,held,garbage)
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORRAL_BIN, startDaemon, testEnv } from '../../harness/daemon.ts';
import { startFleetHost, startHostileHost, type HostileMode } from '../../harness/fleet-host.ts';
import { peakKiB, runCliMeasured } from '../../harness/peak-rss.ts';
import { sleep } from '../../harness/wait.ts';

const modes = (process.argv[2] ?? 'line,reply,flood,held,garbage').split(',') as HostileMode[];
/** How long `corral web --fleet` is watched under attack at most: until the attack has run its course or this. */
const WEB_WATCH_MS = 60_000;
const local = await startDaemon();
const box = await startFleetHost('box');
const env = { ...process.env, ...testEnv(local.dir), CORRAL_SOCKET: local.socket };
mkdirSync(join(local.dir, 'config', 'corral'), { recursive: true });
const configure = (toml: string) => writeFileSync(join(local.dir, 'config', 'corral', 'config.toml'), toml);
const MiB = (kib: number) => (kib / 1024).toFixed(0);

/** `corral web --fleet` watched until `done` or WEB_WATCH_MS: its peak memory, whether it printed its URL, and its last word on the hostile host. */
async function watchWeb(done: () => boolean): Promise<string> {
  const child = spawn(process.execPath, [CORRAL_BIN, 'web', '--socket', local.socket, '--port', '0', '--fleet'], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const start = Date.now();
  let peak = 0;
  while (Date.now() - start < WEB_WATCH_MS && child.exitCode === null && !(stdout.includes('open ') && done())) {
    await sleep(250);
    try {
      peak = peakKiB(child.pid!);
    } catch {
      break;
    }
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const said = stderr.split('\n').filter((line) => line.includes('hostile')).at(-1) ?? '';
  return `web --fleet: peak ${MiB(peak)} MiB after ${((Date.now() - start) / 1000).toFixed(0)} s${stdout.includes('open ') ? '' : ', never served its page'} [${said.slice(0, 200)}]`;
}

async function measure(label: string, toml: string, webDone: () => boolean, webStarts: () => void = () => {}): Promise<void> {
  configure(toml);
  console.log(label);
  for (const args of [['host', 'list'], ['agent', 'list', '--fleet']]) {
    const run = await runCliMeasured(args, env, 120_000);
    const shown = run.stdout.split('\n').find((line) => /^(hostile|box)[ :]/.test(line)) ?? run.stderr.split('\n')[0];
    console.log(`  ${args.join(' ')}: ${MiB(run.peakKiB)} MiB${run.timedOut ? ' (hung: killed at 120 s)' : ''} [${shown?.slice(0, 200)}]`);
  }
  webStarts();
  console.log(`  ${await watchWeb(webDone)}`);
}

try {
  let normalSince = 0;
  await measure('normal host', box.toml, () => Date.now() - (normalSince ||= Date.now()) > 10_000);
  for (const mode of modes) {
    const hostile = await startHostileHost('hostile', mode);
    // The web view has met the attack on three connections of its own (the fleet's link and a board's, then again), or taken 256 MiB of the flood.
    let before = 0;
    const done = () => (mode === 'flood' ? hostile.sent() >= 256 << 20 : hostile.connections() - before >= 3);
    try {
      await measure(`hostile: ${mode}`, hostile.toml, done, () => (before = hostile.connections()));
    } finally {
      await hostile.dispose();
    }
  }
} finally {
  await box.dispose();
  await local.dispose();
}
