// Live check of the Copilot CLI session each pane reads usage from (docs/usage.md, "Which Copilot CLI
// session is the pane's"): two real Copilot CLIs in two Corral panes of one folder and one home, and a
// third outside Corral (prompt mode) started between their turns, so that its session is the newest;
// the daemon is killed (SIGKILL) and started again before the last turn. Each pane's usage must be the
// mock's answers to that pane's own turns, exactly: never the other pane's, never the outside one's,
// none lost or counted twice across the restart (agent-clis/mock-usage.ts names each answer by its input).
// Usage (from the repo root, as root): node --import tsx agent-clis/live-neighbours.ts
// Prints one line per check (PASS or FAIL) and exits 1 when one failed. Not part of `npm test`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agents, binPath } from './agents.ts';
import { startMockModel, type MockModel } from './mock-model.ts';
import { countedAnswers } from './mock-usage.ts';
import { CorralCli } from './live/corral-cli.ts';
import { endAll, processesUsing } from './live/processes.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
const spec = agents['copilot']!;
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
let failed = false;

function check(what: string, ok: boolean, detail: string): void {
  failed ||= !ok;
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'} ${what}: ${detail}\n`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'corral-live-neighbours-'));
  const home = join(work, 'home');
  const project = join(work, 'project');
  for (const dir of [home, project, join(work, 'xdg-run'), join(work, 'xdg-config'), join(work, 'xdg-state')]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(project, 'README.md'), '# live check project\n');
  const mock: MockModel = await startMockModel({ lifetimeMs: 10 * 60_000, logFile: join(work, 'mock-model.log') });
  const ctx = { port: mock.port, home, project, version: spec.version };
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    USER: 'capture',
    SHELL: '/bin/bash',
    XDG_RUNTIME_DIR: join(work, 'xdg-run'),
    XDG_CONFIG_HOME: join(work, 'xdg-config'),
    XDG_STATE_HOME: join(work, 'xdg-state'),
  };
  const socket = join(work, 'corral.sock');
  const cli = new CorralCli(repoRoot, socket, env);
  let daemon: ChildProcess | null = null;
  const startDaemon = async (): Promise<void> => {
    const log = openSync(join(work, 'daemon.log'), 'a');
    daemon = spawn(process.execPath, [join(repoRoot, 'bin', 'corral'), '--socket', socket, 'daemon'], { cwd: home, env, stdio: ['ignore', log, log] });
    for (let tries = 0; (await cli.run(['server', 'status'])).code !== 0; tries += 1) {
      if (tries > 150) throw new Error('daemon_not_ready');
      await sleep(200);
    }
  };
  const patience = String(120_000);
  /** One turn: the mock's slow answer; answers the numbers of the mock's answers it took. */
  const turn = async (pane: string): Promise<number[]> => {
    const before = mock.usage().answers.length;
    const seq = String((await cli.run(['agent', 'list'])).json?.seq ?? 0);
    await cli.run(['pane', 'send', pane, '--text', 'Please answer slowly', '--keys', 'Enter']);
    await cli.run(['agent', 'wait', pane, '--until', 'idle', '--since-seq', seq, '--timeout', patience, '--stable', '1500']);
    return mock.usage().answers.slice(before).map((answer) => answer.n);
  };
  try {
    await startDaemon();
    const bin = binPath(spec, spec.version);
    const agentEnv = Object.entries(spec.env(ctx)).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
    for (const pane of ['a', 'b']) {
      await cli.run(['pane', 'spawn', '--name', pane, '--cwd', project, ...agentEnv, '--', bin]);
      // The folder-trust dialog: its first choice, Yes, is selected.
      await cli.run(['agent', 'wait', pane, '--until', 'blocked', '--timeout', patience]);
      await cli.run(['pane', 'send', pane, '--keys', 'Enter']);
      await cli.run(['agent', 'wait', pane, '--until', 'idle', '--timeout', patience, '--stable', '1500']);
    }
    const own: Record<string, number[]> = { a: await turn('a'), b: [] };
    const outsideBefore = mock.usage().answers.length;
    // Not spawnSync: the mock model answering it runs in this process.
    const outside = spawn(bin, ['-p', 'Please answer slowly', '--allow-all-tools'], { cwd: project, env: { ...env, ...spec.env(ctx) }, stdio: 'ignore' });
    const status = await new Promise<number | null>((done) => outside.once('exit', (code) => done(code)));
    const outsideAnswers = mock.usage().answers.slice(outsideBefore).map((answer) => answer.n);
    check('outside Corral', status === 0 && outsideAnswers.length > 0, `copilot -p exit ${status}, answers ${outsideAnswers.join(', ')}`);
    own['b']!.push(...(await turn('b')));
    daemon!.kill('SIGKILL');
    await new Promise((done) => daemon!.once('exit', done));
    await startDaemon();
    own['a']!.push(...(await turn('a')));
    const answers = mock.usage().answers;
    for (const pane of ['a', 'b']) {
      let usage: any;
      let counted: number[] | null = null;
      // A record is read every second: the figures settle within seconds.
      for (let tries = 0; tries < 30; tries += 1) {
        usage = (await cli.run(['agent', 'get', pane])).json?.usage;
        counted = typeof usage === 'object' ? countedAnswers(answers, usage.tokens) : null;
        if (counted !== null && counted.join() === own[pane]!.join()) break;
        await sleep(1000);
      }
      const figures = typeof usage === 'object' ? `${usage.source} ${JSON.stringify(usage.tokens)}` : String(usage);
      check(`pane ${pane}`, counted !== null && counted.join() === own[pane]!.join(), `Corral ${figures}: answers ${counted?.join(', ') ?? 'none that sum to it'}; its own turns took answers ${own[pane]!.join(', ')}`);
    }
  } finally {
    await cli.run(['shutdown']);
    await endAll(processesUsing(home));
    await mock.close();
    if (!failed) rmSync(work, { recursive: true, force: true });
    else process.stdout.write(`kept ${work}\n`);
  }
}

if (!process.env.CORRAL_CAPTURE_NETNS) {
  if (process.getuid?.() !== 0) {
    process.stderr.write('live_needs_root: the daemon and its panes run in a network namespace with only loopback (unshare -n), which needs root; skipped.\n');
    process.exit(2);
  }
  const result = spawnSync(
    'unshare',
    ['-n', '--', 'bash', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: { ...process.env, CORRAL_CAPTURE_NETNS: '1' } },
  );
  process.exit(result.status ?? 1);
}
await main();
process.exit(failed ? 1 : 0);
