import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling as connect } from '../../../harness/raw-client.ts';
import { isAlive } from '../../../harness/proc.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('a pane that exits while no daemon runs', () => {
  it('is told as exited, with its code and its last output, by the next daemon: the only pane, so its host had nothing else running', async () => {
    const dir = makeTempDir();
    const first = await startDaemon({ dir });
    let second: DaemonProcess | undefined;
    try {
      const a = await connect(first);
      const go = join(dir, 'go');
      const since = await a.call('events.cursor', {});
      const pane = await a.call('pane.spawn', { command: 'sh', args: ['-c', `while [ ! -e ${go} ]; do sleep 0.05; done; echo last words; exit 3`], name: 'away', cwd: dir });
      a.client.close();
      await killDaemon(first);
      writeFileSync(go, '');
      await waitFor(() => !isAlive(pane.pid), { what: 'the pane to exit while no daemon runs', timeoutMs: 30_000 });
      assert.ok(first.hostPids().every(isAlive), 'the pty host stays for the next daemon, which has not heard of the exit');
      second = await startDaemon({ dir });
      assert.deepEqual(second.hostPids(), first.hostPids(), 'the next daemon attached to the same host');
      const b = await connect(second);
      const info = await b.call('pane.get', { target: 'away' });
      assert.deepEqual([info.id, info.state, info.exitCode], [pane.id, 'exited', 3], 'exited with its code, not lost');
      assert.match((await b.call('pane.read', { target: 'away' })).text, /last words/);
      const events = (await b.call('events.read', { since: since.cursor, epoch: since.epoch })).events.filter((e: any) => e.pane?.id === pane.id);
      assert.deepEqual(
        events.map((e: any) => e.kind),
        ['pane.created', 'pane.exited'],
      );
      assert.equal(events[1].data.exitCode, 3);
      b.client.close();
    } finally {
      await second?.dispose();
      await first.dispose();
    }
  });
});
