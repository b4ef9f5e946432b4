import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { AGENT_GET } from '../../src/protocol/methods/agent.ts';
import { PANE_GET, PANE_READ, PANE_RESIZE, PANE_SEND, PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { waitFor, waitForText } from '../../harness/wait.ts';

const FAKE_CLAUDE = fileURLToPath(new URL('../fixtures/agents/fake-claude.mjs', import.meta.url));

/** A tmux server of its own (unique socket name), with sessions running the real CLI. */
class Tmux {
  private static count = 0;
  readonly server = `corral-attach-${process.pid}-${Tmux.count++}`;

  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.server, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** Starts `corral ARGS` in a new session; its exit status is printed after it, and the window stays. */
  start(session: string, args: string[], size = { cols: 90, rows: 20 }): void {
    const quoted = [process.execPath, CORRAL_BIN, ...args].map((word) => `'${word}'`).join(' ');
    this.run('new-session', '-d', '-s', session, '-x', String(size.cols), '-y', String(size.rows), `${quoted}; echo EXIT=$?; sleep 60`);
  }

  screen(session: string): string {
    return this.run('capture-pane', '-p', '-t', session);
  }

  keys(session: string, ...keys: string[]): void {
    this.run('send-keys', '-t', session, ...keys);
  }

  waitScreen(session: string, pattern: RegExp, what: string): Promise<string> {
    return waitForText(() => this.screen(session), pattern, { timeoutMs: 8000, what });
  }

  kill(): void {
    try {
      this.run('kill-server');
    } catch {
      // already gone
    }
  }
}

let daemon: DaemonProcess;
let client: DaemonConnection;
const paneOf = (target: string) => client.call(PANE_GET, { target });
const agentOf = (target: string) => client.call(AGENT_GET, { target });

async function spawnShell(name: string): Promise<void> {
  await client.call(PANE_SPAWN, { command: 'bash', args: ['--norc', '--noprofile'], name, env: { PS1: '$ ' } });
}

before(async () => {
  daemon = await startDaemon();
  client = await DaemonConnection.connect(daemon.socket);
});

after(async () => {
  client.dispose();
  await daemon.dispose();
});

test('attach paints the screen, forwards typing, follows resizes, and C-\\ detaches leaving the pane running', async () => {
  const tmux = new Tmux();
  try {
    await spawnShell('sh1');
    await client.call(PANE_SEND, { target: 'sh1', text: 'echo before-$((1+1))', keys: ['Enter'] });
    await waitFor(async () => (await client.call(PANE_READ, { target: 'sh1' })).text.includes('before-2'), { what: 'output before attach' });

    tmux.start('a', ['--socket', daemon.socket, 'attach', 'sh1']);
    await tmux.waitScreen('a', /before-2/, 'the current screen painted on attach');
    const attached = await paneOf('sh1');
    assert.deepEqual([attached.cols, attached.rows], [90, 20]);

    tmux.keys('a', 'echo typed-$((6*7))', 'Enter');
    await tmux.waitScreen('a', /^typed-42$/m, 'the command typed through attach and its output');

    tmux.run('resize-window', '-t', 'a', '-x', '70', '-y', '15');
    await waitFor(async () => {
      const pane = await paneOf('sh1');
      return pane.cols === 70 && pane.rows === 15;
    }, { what: 'the pane resized to the terminal' });
    tmux.keys('a', 'echo size-$(tput cols)x$(tput lines)', 'Enter');
    await tmux.waitScreen('a', /^size-70x15$/m, 'the program seeing the new size');

    tmux.keys('a', 'C-\\');
    const screen = await tmux.waitScreen('a', /EXIT=\d+/, 'the attach command ending');
    assert.match(screen, /\[detached from w1:p\d+ \(sh1\); it keeps running\]/);
    assert.match(screen, /EXIT=0/);
    assert.doesNotMatch(screen, /typed-42/, 'the shell screen came back: the pane was shown on the alternate screen');
    assert.equal((await paneOf('sh1')).state, 'running');
  } finally {
    tmux.kill();
  }
});

test('detaching gives the pane back the size it had before the attach, unless another resized it meanwhile', async () => {
  const tmux = new Tmux();
  try {
    await spawnShell('sized');
    const before = await paneOf('sized');
    assert.notDeepEqual([before.cols, before.rows], [90, 20]);
    tmux.start('a', ['--socket', daemon.socket, 'attach', 'sized']);
    await waitFor(async () => (await paneOf('sized')).cols === 90, { what: "the pane at the terminal's size" });
    tmux.run('resize-window', '-t', 'a', '-x', '70', '-y', '15');
    await waitFor(async () => (await paneOf('sized')).cols === 70, { what: 'the pane following the resize' });
    tmux.keys('a', 'C-\\');
    await tmux.waitScreen('a', /EXIT=0/, 'the detach');
    const after = await paneOf('sized');
    assert.deepEqual([after.cols, after.rows], [before.cols, before.rows]);

    // Resized by someone else while attached: that size is theirs, and stays.
    tmux.start('b', ['--socket', daemon.socket, 'attach', 'sized']);
    await waitFor(async () => (await paneOf('sized')).cols === 90, { what: "the pane at the second terminal's size" });
    await client.call(PANE_RESIZE, { target: 'sized', cols: 100, rows: 30 });
    tmux.keys('b', 'C-\\');
    await tmux.waitScreen('b', /EXIT=0/, 'the second detach');
    const kept = await paneOf('sized');
    assert.deepEqual([kept.cols, kept.rows], [100, 30]);
  } finally {
    tmux.kill();
  }
});

test('two attached clients share one pane and see the same output', async () => {
  const tmux = new Tmux();
  try {
    await spawnShell('shared');
    tmux.start('one', ['--socket', daemon.socket, 'attach', 'shared'], { cols: 80, rows: 20 });
    await tmux.waitScreen('one', /\$/, 'the first client attached');
    tmux.start('two', ['--socket', daemon.socket, 'attach', 'shared'], { cols: 80, rows: 20 });
    await tmux.waitScreen('two', /\$/, 'the second client attached');
    tmux.keys('one', 'echo from-one-$((3*3))', 'Enter');
    await tmux.waitScreen('one', /^from-one-9$/m, 'output on the typing client');
    await tmux.waitScreen('two', /^from-one-9$/m, 'the same output on the other client');
    tmux.keys('two', 'echo from-two-$((4*4))', 'Enter');
    await tmux.waitScreen('one', /^from-two-16$/m, "the other client's input shown on the first");
  } finally {
    tmux.kill();
  }
});

test('when the pane exits while attached, attach says so and exits 3', async () => {
  const tmux = new Tmux();
  try {
    await spawnShell('leaving');
    tmux.start('a', ['--socket', daemon.socket, 'attach', 'leaving']);
    await tmux.waitScreen('a', /\$/, 'attached');
    tmux.keys('a', 'exit 7', 'Enter');
    const screen = await tmux.waitScreen('a', /EXIT=\d+/, 'the attach command ending');
    assert.match(screen, /pane w1:p\d+ \(leaving\) exited with code 7 while attached \[pane_exited\]/);
    assert.match(screen, /EXIT=3/);
  } finally {
    tmux.kill();
  }
});

test('attaching marks the pane seen: a done agent becomes idle', async () => {
  const tmux = new Tmux();
  try {
    await client.call(PANE_SPAWN, { command: process.execPath, args: [FAKE_CLAUDE], name: 'fc', env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300' } });
    await waitFor(async () => (await agentOf('fc')).state === 'idle', { what: 'the fake agent idle' });
    await client.call(PANE_SEND, { target: 'fc', text: 'hello', keys: ['Enter'] });
    await waitFor(async () => (await agentOf('fc')).state === 'done', { what: 'the agent done (idle, unseen)' });
    tmux.start('a', ['--socket', daemon.socket, 'attach', 'fc']);
    await tmux.waitScreen('a', /Task complete/, 'the agent screen');
    const info = await agentOf('fc');
    assert.equal(info.state, 'idle');
    assert.equal(info.seen, true);
  } finally {
    tmux.kill();
  }
});

test('attach to a missing pane fails with exit 3 before touching the screen', async () => {
  const tmux = new Tmux();
  try {
    tmux.start('a', ['--socket', daemon.socket, 'attach', 'nope']);
    const screen = await tmux.waitScreen('a', /EXIT=\d+/, 'the attach command ending');
    assert.match(screen.replace(/\n/g, ''), /no pane has id or name "nope".*\[pane_not_found\]/);
    assert.match(screen, /EXIT=3/);
  } finally {
    tmux.kill();
  }
});

test('attach without a terminal exits 2 with a message, as top does', async () => {
  const result = await runCli(['--socket', daemon.socket, 'attach', 'nope']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /attach needs a terminal/);
});
