// Live check of a whole turn: the newest Claude Code in a pane of a real daemon (its hooks added by
// the manifest, the OSC 7501 query answered by the pane), driven only through the `corral` CLI.
// A long streamed answer must stay working until it ends, the auto-mode footer-key dialog must be
// blocked, done must come once, after the turn, and an Esc must end a turn.
// Usage (from the repo root, as root): node --import tsx agent-clis/live-turns.ts [--version 2.1.332]
// Prints one line per check (PASS or FAIL) and exits 1 when one failed. Not part of `npm test`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agents, binPath } from './agents.ts';
import { LONG_ANSWER_END, TOOL_ANSWER_END, startMockModel } from './mock-model.ts';
import { CorralCli } from './live/corral-cli.ts';
import { Observer } from './live/observer.ts';
import { endAll, processesUsing } from './live/processes.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
const PANE = 'live';
const TIME_BOX_MS = 8 * 60_000;
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const failures: string[] = [];

function check(name: string, ok: boolean, detail: string): void {
  if (!ok) failures.push(name);
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}\n`);
}

async function main(version: string): Promise<void> {
  const spec = agents.claude!;
  const work = mkdtempSync(join(tmpdir(), 'corral-live-turns-'));
  const home = join(work, 'home');
  const project = join(work, 'project');
  for (const dir of [home, project]) mkdirSync(dir, { recursive: true });
  const mock = await startMockModel({ lifetimeMs: TIME_BOX_MS + 60_000, logFile: join(work, 'mock-model.log') });
  const ctx = { port: mock.port, home, project, version };
  spec.setup(ctx);
  // The default permission mode of the newest versions (auto): the footer-key dialog comes from it.
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({}));
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8',
    COLORTERM: 'truecolor', USER: 'capture', SHELL: '/bin/bash',
    XDG_RUNTIME_DIR: join(work, 'xdg-run'), XDG_CONFIG_HOME: join(work, 'xdg-config'), XDG_STATE_HOME: join(work, 'xdg-state'),
  };
  for (const key of ['XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME']) mkdirSync(env[key]!, { recursive: true, mode: 0o700 });
  const socket = join(work, 'run', 'corral.sock');
  const cli = new CorralCli(repoRoot, socket, env);
  const corral = (...args: string[]) => cli.run(args);
  let daemon: ChildProcess | null = null;
  let observer: Observer | null = null;
  const timeBox = setTimeout(() => { process.stderr.write('live_turns_timeout\n'); process.exit(1); }, TIME_BOX_MS);
  try {
    const logFd = openSync(join(work, 'daemon.log'), 'a');
    daemon = spawn(process.execPath, [join(repoRoot, 'bin', 'corral'), '--socket', socket, 'daemon'], { cwd: home, env, stdio: ['ignore', logFd, logFd] });
    for (let i = 0; (await corral('server', 'status')).code !== 0; i++) {
      if (i > 150) throw new Error('daemon_not_ready');
      await sleep(200);
    }
    const agentEnv = Object.entries(spec.env(ctx)).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
    const spawned = await corral('pane', 'spawn', '--name', PANE, '--cwd', project, ...agentEnv, '--', binPath(spec, version));
    if (spawned.code !== 0) throw new Error(`spawn_failed: ${spawned.stderr}`);
    observer = await Observer.start(socket, PANE);
    const watch = observer;
    const get = async () => (await corral('agent', 'get', PANE)).json;

    // Start-up: the folder-trust dialog (`No, exit` first and selected), then the composer.
    check('trust dialog blocked', (await corral('agent', 'wait', PANE, '--until', 'blocked', '--timeout', '60000')).code === 0, `${(await get())?.source}`);
    await corral('pane', 'send', PANE, '--keys', 'Down', 'Enter');
    check('idle at start', (await corral('agent', 'wait', PANE, '--until', 'idle', '--stable', '2000', '--timeout', '60000')).code === 0, `${(await get())?.source}`);

    // A long streamed answer: working until its end word is on screen, then done once.
    const longTurn = async (name: string): Promise<void> => {
      const seq = Number((await corral('agent', 'list')).json?.seq ?? 0);
      watch.arm(name, new RegExp(LONG_ANSWER_END));
      const sentAt = Date.now();
      await corral('agent', 'prompt', PANE, 'Please write a long answer');
      const waited = await corral('agent', 'wait', PANE, '--until', 'idle', '--since-seq', String(seq), '--timeout', '90000');
      const endAt = watch.seenAt(name);
      const changes = watch.stateChanges().filter((e) => e.receivedAt >= sentAt).map((e) => ({ to: e.event.data.to as string, source: e.event.data.source as string, at: e.receivedAt }));
      const early = changes.filter((c) => (c.to === 'idle' || c.to === 'done') && (endAt === null || c.at < endAt));
      check(`${name}: working until the answer ends`, waited.code === 0 && endAt !== null && early.length === 0,
        `wait returned ${((waited.endedAt - sentAt) / 1000).toFixed(1)} s after the prompt, end word seen ${endAt === null ? 'never' : `${((endAt - sentAt) / 1000).toFixed(1)} s`}; changes ${changes.map((c) => `${c.to} (${c.source}) +${((c.at - sentAt) / 1000).toFixed(1)}s`).join(', ')}`);
      check(`${name}: done once`, changes.filter((c) => c.to === 'done').length === 1, `${changes.filter((c) => c.to === 'done').length} done`);
    };
    await longTurn('long answer');

    // Two shell calls: the footer-key dialog, then an approval for each.
    const seq = Number((await corral('agent', 'list')).json?.seq ?? 0);
    const sentAt = Date.now();
    await corral('agent', 'prompt', PANE, 'Use the shell twice');
    const blocked = await corral('agent', 'wait', PANE, '--until', 'blocked', '--since-seq', String(seq), '--timeout', '60000');
    await sleep(1500);
    const dialog = await get();
    check('auto-mode dialog blocked', blocked.code === 0 && /Auto mode can.t check actions/.test(watch.screen), `state ${dialog?.state} by ${dialog?.source}`);
    await corral('pane', 'send', PANE, '--keys', 'Enter');
    for (const n of [1, 2]) {
      await sleep(1000);
      const waited = await corral('agent', 'wait', PANE, '--until', 'blocked', '--timeout', '30000');
      const info = await get();
      check(`permission ${n} blocked`, waited.code === 0 && /Do you want to proceed\?/.test(watch.screen), `state ${info?.state} by ${info?.source}`);
      await corral('pane', 'send', PANE, '--keys', 'Down', 'Enter');
    }
    watch.arm('tools', new RegExp(TOOL_ANSWER_END));
    const idle = await corral('agent', 'wait', PANE, '--until', 'idle', '--since-seq', String(seq), '--timeout', '60000');
    const changes = watch.stateChanges().filter((e) => e.receivedAt >= sentAt).map((e) => e.event.data.to as string);
    check('tool turn: done once, after the closing answer', idle.code === 0 && changes.filter((s) => s === 'done').length === 1 && watch.seenAt('tools') !== null,
      `changes ${changes.join(' > ')}`);

    // Esc in the middle of a long answer ends the turn.
    await corral('agent', 'prompt', PANE, 'Please write another long answer');
    await corral('agent', 'wait', PANE, '--until', 'working', '--timeout', '30000');
    await sleep(4000);
    const before = await get();
    await corral('pane', 'send', PANE, '--keys', 'Escape');
    const stopped = await corral('agent', 'wait', PANE, '--until', 'idle', '--timeout', '15000');
    const after = await get();
    check('Esc ends the turn', before?.state === 'working' && stopped.code === 0, `before Esc ${before?.state} by ${before?.source}; after ${after?.state} by ${after?.source} in ${stopped.endedAt - stopped.startedAt} ms`);
  } finally {
    clearTimeout(timeBox);
    observer?.dispose();
    await corral('shutdown');
    daemon?.kill('SIGTERM');
    await endAll(processesUsing(home));
    await mock.close();
    if (!process.env.LIVE_KEEP) rmSync(work, { recursive: true, force: true });
    else process.stdout.write(`work dir ${work}\n`);
  }
}

const at = process.argv.indexOf('--version');
const version = at > 0 ? process.argv[at + 1]! : '2.1.332';
if (!process.env.CORRAL_CAPTURE_NETNS) {
  if (process.getuid?.() !== 0) {
    process.stderr.write('live_needs_root: the daemon and its pane run in a network namespace with only loopback (unshare -n), which needs root; skipped.\n');
    process.exit(2);
  }
  const result = spawnSync('unshare', ['-n', '--', 'bash', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit', env: { ...process.env, CORRAL_CAPTURE_NETNS: '1' },
  });
  process.exit(result.status ?? 1);
}
await main(version);
process.exit(failures.length ? 1 : 0);
