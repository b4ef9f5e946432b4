import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { AGENT_GET } from '../../src/protocol/methods/agent.ts';
import { PANE_SEND, PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { waitFor, waitForText } from '../../harness/wait.ts';

const FAKE_CLAUDE = fileURLToPath(new URL('../fixtures/agents/fake-claude.mjs', import.meta.url));

let daemon: DaemonProcess;
let client: DaemonConnection;

before(async () => {
  daemon = await startDaemon();
  client = await DaemonConnection.connect(daemon.socket);
  for (const name of ['alpha', 'beta']) {
    await client.call(PANE_SPAWN, { command: process.execPath, args: [FAKE_CLAUDE], name, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300' } });
  }
  await client.call(PANE_SPAWN, { command: 'bash', args: ['--norc', '--noprofile'], name: 'plain-shell' });
  for (const name of ['alpha', 'beta']) {
    await waitFor(async () => (await client.call(AGENT_GET, { target: name })).state === 'idle', { what: `${name} idle` });
  }
});

after(async () => {
  client.dispose();
  await daemon.dispose();
});

test('top --once prints one plain frame of every agent, 80 columns wide', async () => {
  const result = await runCli(['--socket', daemon.socket, 'top', '--once', '--cols', '80']);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^corral top: 2 agents \(2 idle\)$/);
  assert.match(lines[1]!, /^ STATE +AGE +AGENT +NAME +TITLE +Q$/);
  // Both idle: the one idle longest comes first, whichever settled first.
  const rows = lines.slice(2).sort((a, b) => Number(a.includes('beta')) - Number(b.includes('beta')));
  assert.match(rows[0]!, /^ idle +\d+s +claude +alpha +✳ Fake Agent$/);
  assert.match(rows[1]!, /^ idle +\d+s +claude +beta +✳ Fake Agent$/);
  assert.equal(lines.length, 4, 'the plain shell has no agent and is not shown');
  assert.doesNotMatch(result.stdout, /\x1b/);
  for (const line of lines) assert.ok([...line].length <= 80);
});

test('top --once --json prints the rows in attention order', async () => {
  const result = await runCli(['--socket', daemon.socket, '--json', 'top', '--once']);
  assert.equal(result.code, 0, result.stderr);
  const rows = JSON.parse(result.stdout) as { name: string; state: string; agent: string; stateSince: number }[];
  assert.deepEqual(rows.map((row) => [row.name, row.agent, row.state]).sort(), [['alpha', 'claude', 'idle'], ['beta', 'claude', 'idle']]);
  assert.ok(rows[0]!.stateSince <= rows[1]!.stateSince, 'longest in its state first');
});

/** `corral top` in a tmux session of its own, 80 columns wide, with the calls the tests drive it by. */
function topInTmux(name: string, rows: number) {
  const server = `${name}-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', server, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', 'top');
  const waitScreen = (pattern: RegExp, what: string) => waitForText(screen, pattern, { timeoutMs: 8000, what });
  const command = [process.execPath, CORRAL_BIN, '--socket', daemon.socket, 'top'].map((word) => `'${word}'`).join(' ');
  tmux('new-session', '-d', '-s', 'top', '-x', '80', '-y', String(rows), `${command}; echo EXIT=$?; sleep 60`);
  const dispose = () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
  };
  return { tmux, screen, waitScreen, dispose };
}

test('the live view shows a state change as it happens, and q restores the terminal', async () => {
  const { tmux, screen, waitScreen, dispose } = topInTmux('corral-top', 12);
  try {
    await waitScreen(/^ idle .* beta /m, 'the first frame');
    assert.match(screen(), /↑↓\/jk move {2}enter\/a attach {2}f focus {2}q quit/);

    await client.call(PANE_SEND, { target: 'beta', text: 'perm', keys: ['Enter'] });
    // Blocked, it enters the inbox: marked * and counted, as corral web counts it.
    const blocked = await waitScreen(/^\*blocked .* beta /m, 'beta blocked, without restarting top');
    assert.match(blocked, /corral top: 2 agents \(1 blocked, 1 idle\), 1 needs you/);
    assert.ok(blocked.indexOf('beta') < blocked.indexOf('alpha'), 'blocked sorts first');

    // Answered in its terminal, its item is acknowledged; done, it enters the inbox anew.
    await client.call(PANE_SEND, { target: 'beta', text: '1' });
    await waitScreen(/^\*done .* beta /m, 'beta done once approved and finished');

    tmux('send-keys', '-t', 'top', 'k', 'f'); // the selection follows alpha, now second: move up to beta
    await waitScreen(/marked w1:p2 seen/, 'f marks the selected agent seen');
    const seen = await waitScreen(/^ idle .* beta /m, 'beta idle once seen');
    assert.match(seen, /corral top: 2 agents \(2 idle\)\s*$/m, 'nothing needs you once focused');

    tmux('send-keys', '-t', 'top', 'q');
    const after = await waitScreen(/EXIT=\d+/, 'top quitting');
    assert.match(after, /EXIT=0/);
    assert.doesNotMatch(after, /corral top:/, 'the main screen is back');
  } finally {
    dispose();
  }
});

test('Enter attaches to the selected agent; the detach key comes back to top', async () => {
  const { tmux, screen, waitScreen, dispose } = topInTmux('corral-top-attach', 14);
  try {
    await waitScreen(/^ \w+ .* alpha /m, 'the first frame');
    tmux('send-keys', '-t', 'top', 'Enter');
    await waitScreen(/\? for shortcuts/, "the agent's own screen");
    tmux('send-keys', '-t', 'top', 'C-\\');
    await waitScreen(/\[detached from w1:p\d+ \(\w+\); it keeps running\]/, 'back in top, with how the attachment ended');
    assert.match(screen(), /corral top: 2 agents/);
  } finally {
    dispose();
  }
});
