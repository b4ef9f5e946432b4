import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { useDaemon } from '../helpers/session.ts';

describe('corral agent report, session and release', () => {
  const session = useDaemon();
  const corral = (...args: string[]) => runCli(['--socket', session.daemon.socket, '--json', ...args]);

  it('labels a pane from outside, then refuses reports of a session that was released', async () => {
    const pane = await session.call('pane.spawn', { command: 'sleep', args: ['100'], cwd: session.daemon.dir, name: 'indexed' });
    const from = ['--target', 'indexed', '--external', '--source', 'custom:indexer'];
    const report = await corral('agent', 'report', ...from, '--agent', 'claude', '--state', 'working', '--session', 's1', '--seq', '3');
    assert.deepEqual([report.code, JSON.parse(report.stdout)], [0, { accepted: true }]);
    const info = await session.call('agent.get', { target: 'indexed' });
    assert.deepEqual([info.agent, info.identity, info.state], ['claude', 'report', 'working']);

    const late = await corral('agent', 'report', ...from, '--agent', 'claude', '--state', 'blocked', '--session', 's1', '--seq', '2');
    assert.deepEqual(JSON.parse(late.stdout), { accepted: false, reason: 'stale_seq' });

    assert.deepEqual(JSON.parse((await corral('agent', 'session', ...from, '--session', 's1', '--agent', 'claude')).stdout), { accepted: true });
    assert.deepEqual(JSON.parse((await corral('agent', 'release', ...from, '--session', 's1')).stdout), { accepted: true });
    const after = await runCli(['--socket', session.daemon.socket, 'agent', 'report', ...from, '--agent', 'claude', '--state', 'blocked', '--session', 's1', '--seq', '9']);
    assert.equal(after.code, 0, 'a rejected report still exits 0, so hooks stay quiet');
    assert.match(after.stderr, /not accepted: session_ended/);
    await session.call('pane.kill', { target: pane.id });
  });

  it('needs a pane: --target or CORRAL_PANE', async () => {
    const env = { ...process.env };
    delete env.CORRAL_PANE;
    const result = await runCli(['--socket', session.daemon.socket, 'agent', 'report', '--source', 'hook:x', '--agent', 'claude', '--state', 'idle'], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /CORRAL_PANE/);
  });
});

describe('corral agent report against a daemon that is not there or never answers', () => {
  const args = ['agent', 'report', '--target', 'p1', '--source', 'hook:x', '--agent', 'claude', '--state', 'idle'];

  it('gives up on a socket that accepts and never answers, with the timeout code its help names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corral-silent-'));
    const path = join(dir, 'silent.sock');
    const held: Socket[] = [];
    const server = createServer((socket) => held.push(socket)); // reads nothing, answers nothing
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const result = await runCli(['--socket', path, ...args]);
      assert.equal(result.code, 124, result.stderr);
      assert.match(result.stderr, /did not answer/);
      assert.match((await runCli(['agent', 'report', '--help'])).stdout, /124/);
    } finally {
      for (const socket of held) socket.destroy();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 4 with no daemon, as its help says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corral-none-'));
    try {
      const result = await runCli(['--socket', join(dir, 'none.sock'), ...args]);
      assert.equal(result.code, 4);
      assert.match((await runCli(['agent', 'report', '--help'])).stdout, /4 when no daemon\s+answers/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
