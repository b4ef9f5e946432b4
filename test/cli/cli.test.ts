import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { waitFor } from '../../harness/wait.ts';

describe('the corral CLI against a real daemon', () => {
  let daemon: DaemonProcess;

  before(async () => {
    daemon = await startDaemon();
  });

  after(async () => {
    await daemon?.dispose();
  });

  const corral = (...args: string[]) => runCli(['--socket', daemon.socket, ...args]);

  it('spawns a named pane, drives it, reads it and kills it, exiting 0 each time', async () => {
    const spawned = await corral('pane', 'spawn', '--name', 'tour', '--cwd', daemon.dir, '--env', 'PS1=$ ', '--', 'bash', '--norc');
    assert.equal(spawned.code, 0, spawned.stderr);
    assert.match(spawned.stdout.trim(), /^w1:p\d+$/);
    const sent = await corral('pane', 'send', 'tour', '--text', 'echo cli-$((40+2))', '--keys', 'Enter');
    assert.equal(sent.code, 0, sent.stderr);
    await waitFor(async () => (await corral('pane', 'read', 'tour')).stdout.includes('cli-42'), { timeoutMs: 15000, what: 'the echo' });
    const listed = await corral('pane', 'list');
    assert.match(listed.stdout, /^ID\s+NAME\s+STATE/);
    assert.match(listed.stdout, /tour\s+running/);
    assert.equal((await corral('pane', 'kill', 'tour')).code, 0);
  });

  it('prints objects with --json, given before or after the command name', async () => {
    const spawned = await runCli(['pane', 'spawn', '--json', '--socket', daemon.socket, '--cols', '90', '--rows', '25', '--', 'sleep', '30']);
    assert.equal(spawned.code, 0, spawned.stderr);
    const pane = JSON.parse(spawned.stdout);
    assert.deepEqual([pane.cols, pane.rows, pane.command, pane.state], [90, 25, 'sleep', 'running']);
    const got = await runCli(['--json', '--socket', daemon.socket, 'pane', 'get', pane.id]);
    assert.equal(JSON.parse(got.stdout).id, pane.id);
    const status = await corral('server', 'status', '--json');
    assert.equal(JSON.parse(status.stdout).protocolVersion, 2);
    await corral('pane', 'kill', pane.id);
  });

  it('exits 3 for a target that is not found or has exited', async () => {
    const missing = await corral('pane', 'get', 'nobody');
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /no pane has id or name "nobody".*pane_not_found/);
    const spawned = await corral('pane', 'spawn', '--cwd', daemon.dir, '--', 'true');
    const id = spawned.stdout.trim();
    await waitFor(async () => (await corral('pane', 'list')).stdout.includes('exited (0)'), { timeoutMs: 15000, what: 'exit' });
    const exited = await corral('pane', 'send', id, '--text', 'x');
    assert.equal(exited.code, 3);
    assert.match(exited.stderr, /pane_exited/);
    await corral('pane', 'kill', id);
  });

  it('exits 2 for a usage error, from the parser or from the daemon', async () => {
    assert.equal((await corral('pane', 'resize', 'x', 'wide', '10')).code, 2);
    assert.equal((await corral('pane', 'frobnicate')).code, 2);
    const badKey = await corral('pane', 'send', 'nobody-needed', '--keys', 'Hyper-Q');
    assert.equal(badKey.code, 3, 'the target is checked first');
  });

  it('exits 4 when no daemon answers, naming the socket path it tried', async () => {
    const socket = join(daemon.dir, 'nobody-here.sock');
    const result = await runCli(['pane', 'list', '--socket', socket]);
    assert.equal(result.code, 4);
    assert.ok(result.stderr.includes(socket), result.stderr);
    assert.match(result.stderr, /corral daemon/);
  });

  it('documents the exit codes in --help', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /124\s+timeout/);
    assert.match(help.stdout, /4\s+daemon unreachable/);
  });
});
