import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { RawClient } from '../../../harness/raw-client.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('exited panes are kept up to [panes] keep_exited', () => {
  let daemon: DaemonProcess;
  let client: RawClient;
  let id = 1;
  const call = async (method: string, params: unknown) => {
    client.request(id, method, params);
    const reply = await client.next(60_000); // a hang guard: a loaded machine spawns slowly
    id += 1;
    assert.ok(reply.result, JSON.stringify(reply.error));
    return reply.result;
  };

  before(async () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    writeFileSync(join(dir, 'config', 'corral', 'config.toml'), '[panes]\nkeep_exited = 2\n');
    daemon = await startDaemon({ dir });
    client = await RawClient.connect(daemon.socket);
  });

  after(async () => {
    client.close();
    await daemon.dispose();
  });

  it('removes the panes that exited first once more than 2 exited; a running pane stays', async () => {
    const running = await call('pane.spawn', { command: 'sleep', args: ['300'], cwd: daemon.dir });
    const ended: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const pane = await call('pane.spawn', { command: 'sh', args: ['-c', `exit ${i}`], cwd: daemon.dir });
      await waitFor(async () => (await call('pane.list', {})).panes.every((p: any) => p.id !== pane.id || p.state === 'exited'), {
        timeoutMs: 60_000,
        what: `pane ${pane.id} to exit`,
      });
      ended.push(pane.id);
    }
    const listed = await waitFor(async () => {
      const panes = (await call('pane.list', {})).panes.map((p: any) => p.id);
      return panes.length === 3 ? panes : null;
    }, { timeoutMs: 30_000, what: 'the list to hold the running pane and the last 2 exited' });
    assert.deepEqual(listed, [running.id, ...ended.slice(-2)]);
    assert.match(daemon.stderr(), /exited pane removed/);
  });
});
