import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN } from '../../harness/daemon.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

describe('corral agent report, session and release', () => {
  const session = useDaemon();
  const corral = (...args: string[]) => runCli(['--socket', session.daemon.socket, '--json', ...args]);

  it('refuses a report from outside the pane: the kernel names the reporter, not the report', async () => {
    const pane = await session.call('pane.spawn', { command: 'sleep', args: ['100'], cwd: session.daemon.dir, name: 'outside' });
    const from = ['--target', 'outside', '--source', 'custom:indexer'];
    const external = await corral('agent', 'report', ...from, '--external', '--agent', 'claude', '--state', 'working');
    assert.deepEqual([external.code, JSON.parse(external.stdout)], [0, { accepted: false, reason: 'not_in_pane' }]);
    const claimed = await runCli(['--socket', session.daemon.socket, '--json', 'agent', 'report', ...from, '--agent', 'claude', '--state', 'working'], {
      env: { ...process.env, CORRAL_PANE: 'outside' },
    });
    assert.deepEqual(JSON.parse(claimed.stdout), { accepted: false, reason: 'not_in_pane' });
    assert.equal((await session.call('agent.get', { target: 'outside' })).agent, null);
    await session.call('pane.kill', { target: pane.id });
  });

  it('orders reports from inside a pane, then refuses reports of a session that was released', async () => {
    const bin = CORRAL_BIN;
    const cli = `node ${bin} --socket ${session.daemon.socket} --json agent`;
    const out = (name: string) => `${session.daemon.dir}/${name}.json`;
    const script = [
      `${cli} report --source custom:indexer --agent claude --state working --session s1 --seq 3 > ${out('first')}`,
      `${cli} report --source custom:indexer --agent claude --state blocked --session s2 --seq 2 > ${out('late')}`,
      `${cli} session --source custom:indexer --session s1 --agent claude > ${out('session')}`,
      `${cli} release --source custom:indexer --session s1 > ${out('release')}`,
      `${cli} report --source custom:indexer --agent claude --state blocked --session s1 --seq 9 > ${out('after')}`,
      'exec sleep 100',
    ].join('; ');
    const pane = await session.call('pane.spawn', { command: '/bin/sh', args: ['-c', script], cwd: session.daemon.dir, name: 'indexed' });
    const read = (name: string) =>
      waitFor(() => {
        try {
          const text = readFileSync(out(name), 'utf8');
          return text.trim().endsWith('}') ? JSON.parse(text) : null;
        } catch {
          return null;
        }
      }, { what: `${name} answered`, timeoutMs: 20000 });
    assert.deepEqual(await read('first'), { accepted: true });
    assert.deepEqual(await read('late'), { accepted: false, reason: 'stale_seq' }, 'a new session id does not reset the order');
    assert.deepEqual(await read('session'), { accepted: true });
    assert.deepEqual(await read('release'), { accepted: true });
    assert.deepEqual(await read('after'), { accepted: false, reason: 'session_ended' });
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
