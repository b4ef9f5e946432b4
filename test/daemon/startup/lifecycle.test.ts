import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../helpers/cli.ts';
import { makeTempDir, startDaemon } from '../../../harness/daemon.ts';
import { RawClient } from '../../../harness/raw-client.ts';
import { isAlive } from '../../../harness/proc.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('the daemon lifecycle', () => {
  it('refuses a second daemon on the same socket, naming the first', async () => {
    const first = await startDaemon();
    try {
      const second = await runCli(['daemon', '--socket', first.socket]);
      assert.equal(second.code, 1);
      assert.match(second.stderr, new RegExp(`pid ${first.pid}`));
      assert.match(second.stderr, /daemon_running/);
      const client = await RawClient.connect(first.socket);
      assert.equal((await client.call(1, 'server.status')).result.pid, first.pid, 'the first still serves');
      client.close();
    } finally {
      await first.dispose();
    }
  });

  it('removes the socket and lock left by a daemon that died, and starts', async () => {
    const dir = makeTempDir();
    try {
      const crashed = await startDaemon({ dir });
      crashed.child.kill('SIGKILL');
      await crashed.stop();
      assert.ok(existsSync(crashed.socket) && existsSync(`${crashed.socket}.lock`), 'a crash leaves both behind');
      const next = await startDaemon({ dir });
      assert.match(next.stderr(), /removed a stale socket/);
      await next.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a stale lock naming a live program that is not a daemon on this socket is taken over, never answered with "kill"', async () => {
    const dir = makeTempDir();
    // A live process whose command line mentions corral, but is no daemon (the pid was reused).
    const lookalike = spawn('sh', ['-c', 'sleep 300', 'corral-notes'], { stdio: 'ignore' });
    try {
      await waitFor(() => isAlive(lookalike.pid!), { what: 'the lookalike' });
      writeFileSync(join(dir, 'corral.sock.lock'), `${lookalike.pid}\n`);
      const daemon = await startDaemon({ dir });
      const client = await RawClient.connect(daemon.socket);
      assert.equal((await client.call(1, 'server.status')).result.pid, daemon.pid, 'the new daemon serves');
      client.close();
      await daemon.dispose();
      assert.ok(isAlive(lookalike.pid!), 'the other program is left alone');
    } finally {
      lookalike.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on SIGTERM leaves every pane running in the pty host, removes the socket and exits 0', async () => {
    const daemon = await startDaemon();
    try {
      const client = await RawClient.connect(daemon.socket);
      const spawned = await client.call(1, 'pane.spawn', { command: 'sleep', args: ['300'], cwd: daemon.dir });
      client.close();
      assert.deepEqual(await daemon.stop(), { code: 0, signal: null });
      assert.ok(isAlive(spawned.result.pid), 'the agent outlives the daemon');
      assert.ok(!existsSync(daemon.socket), 'the socket is removed');
      assert.ok(!existsSync(`${daemon.socket}.lock`), 'the lock is removed');
      assert.ok(existsSync(`${daemon.socket}.host`), 'the pty host still listens beside it');
    } finally {
      await daemon.dispose();
    }
  });

  for (const words of [['daemon', 'stop', '--panes'], ['shutdown']]) {
    it(`\`corral ${words.join(' ')}\` ends every pane process group and the pty host`, async () => {
      const daemon = await startDaemon();
      const client = await RawClient.connect(daemon.socket);
      const spawned = await client.call(1, 'pane.spawn', { command: 'bash', args: ['--norc'], cwd: daemon.dir });
      const shell = spawned.result.pid;
      await client.call(2, 'pane.send', { target: spawned.result.id, text: 'sleep 300 & echo bg=$!', keys: ['Enter'] });
      const background = await waitFor(async () => {
        const text: string = (await client.call(3, 'pane.read', { target: spawned.result.id })).result.text;
        return Number(/bg=(\d+)/.exec(text)?.[1] ?? 0);
      }, { what: 'the background job' });
      const [host] = daemon.hostPids();
      const result = await runCli(['--socket', daemon.socket, ...words]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /ending 1 pane/);
      assert.deepEqual(await daemon.stop(), { code: 0, signal: null });
      assert.ok(!isAlive(shell), 'the shell is gone');
      // The job got SIGHUP with the shell; its death is not awaited by the daemon's exit.
      await waitFor(() => !isAlive(background), { timeoutMs: 1000, what: 'the background job to be gone' });
      await waitFor(() => !isAlive(host!), { timeoutMs: 2000, what: 'the pty host to exit' });
      assert.ok(!existsSync(daemon.socket), 'the socket is removed');
      assert.ok(!existsSync(`${daemon.socket}.host`), 'the host socket is removed');
      client.close();
      await daemon.dispose();
    });
  }

  it('refuses a socket folder open to other users', async () => {
    const dir = makeTempDir();
    try {
      chmodSync(dir, 0o755);
      const result = await runCli(['daemon', '--socket', join(dir, 'corral.sock')]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /mode 0755.*chmod 700/);
      assert.match(result.stderr, /socket_dir_insecure/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a socket path too long for a Unix socket with a clear message', async () => {
    const result = await runCli(['daemon', '--socket', join('/tmp', 'x'.repeat(120), 'corral.sock')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /over the Unix limit of 107.*--socket/);
  });
});
