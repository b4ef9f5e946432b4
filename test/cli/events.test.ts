import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { waitFor } from '../../harness/wait.ts';

describe('corral events', () => {
  let daemon: DaemonProcess;
  const cli = (...args: string[]) => runCli(['--socket', daemon.socket, ...args]);

  before(async () => {
    daemon = await startDaemon();
  });

  after(async () => {
    await daemon?.dispose();
  });

  it('prints retained events as NDJSON after a cursor, filtered, and exits', async () => {
    const spawned = await cli('--json', 'pane', 'spawn', '--name', 'ev', '--', 'bash', '--norc', '--noprofile');
    assert.equal(spawned.code, 0, spawned.stderr);
    const all = await cli('--json', 'events');
    assert.equal(all.code, 0, all.stderr);
    const events = all.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const created = events.find((e) => e.kind === 'pane.created' && e.pane.name === 'ev');
    assert.ok(created, all.stdout);
    const since = await cli('--json', 'events', '--since', String(created.cursor - 1), '--filter', 'kind:pane.created pane:ev');
    assert.deepEqual(since.stdout.trim().split('\n').map((line) => JSON.parse(line)), [created]);
    const text = await cli('events', '--filter', 'pane:ev');
    assert.match(text.stdout, /pane\.created\s+w1:p\d+ \(ev\)\s+bash\n/, "the command; its args are in pane.get, not in events");
  });

  it('follows live events until interrupted', async () => {
    // Following from the current cursor catches the pane however soon it comes, without a sleep.
    const cursor = JSON.parse((await cli('--json', 'events')).stdout.trim().split('\n').at(-1)!).cursor as number;
    const args = ['--socket', daemon.socket, '--json', 'events', '--follow', '--since', String(cursor), '--filter', 'pane:live'];
    const child = spawn(process.execPath, [CORRAL_BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      await cli('pane', 'spawn', '--name', 'live', '--', 'bash', '--norc', '--noprofile');
      await waitFor(() => stdout.includes('"pane.created"'), { what: `pane.created in ${stdout}`, timeoutMs: 8000 });
      await cli('pane', 'kill', 'live');
      await waitFor(() => stdout.includes('"pane.removed"'), { what: 'pane.removed' });
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exited, 0);
    const kinds = stdout.trim().split('\n').map((line) => JSON.parse(line).kind);
    assert.equal(kinds[0], 'pane.created');
    assert.equal(kinds.at(-1), 'pane.removed');
  });

  it('exits 2 on a bad filter and 1 on a cursor not of the stream', async () => {
    const bad = await cli('events', '--filter', 'colour:red');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /field "colour" is not one of kind, pane, agent.*\[invalid_params\]/);
    const ahead = await cli('events', '--since', '999999');
    assert.equal(ahead.code, 1);
    assert.match(ahead.stderr, /\[stream_changed\]/);
    const usage = await cli('events', '--since', 'soon');
    assert.equal(usage.code, 2);
  });
});
