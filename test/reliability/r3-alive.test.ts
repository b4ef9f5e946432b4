// R3, 200 panes alive at once: all run, all are listed, and killing them leaves no pane and no process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DaemonProcess } from '../../harness/daemon.ts';
import { caller, descriptors, overConnections, quietConnections, settledChildren, settledDescriptors, startChurnDaemon } from './churn.ts';
import { LineClient } from '../../harness/line-client.ts';
import { report } from '../../harness/figures.ts';
import { rssKiB } from '../../harness/proc.ts';

const ALIVE_AT_ONCE = 200;

describe('R3, 200 panes alive at once', () => {
  let daemon: DaemonProcess;
  before(async () => {
    ({ daemon } = await startChurnDaemon());
  });
  after(async () => {
    await daemon?.dispose();
  });

  it('runs 200 panes at once, and kills them all', async () => {
    const client = await LineClient.connect(daemon.socket);
    const call = caller(client);
    try {
      // Counted once the daemon has this connection and no other: LineClient.connect resolves when
      // the kernel has the connection, and the daemon's end was sometimes not accepted yet (21 before,
      // 22 after, in CI).
      // One pane first: its events open the durable event log's segment, a descriptor the daemon
      // then holds for good (docs/events.md), not one of the 200 panes'.
      const first = await call(500, 'pane.spawn', { command: 'sleep', args: ['1000'], cwd: daemon.dir });
      await call(501, 'pane.kill', { target: first.result.id });
      await quietConnections(call);
      const fdsBefore = descriptors(daemon);
      const ids: string[] = [];
      for (let i = 0; i < ALIVE_AT_ONCE; i += 1) {
        const reply = await call(i + 1, 'pane.spawn', { command: 'sleep', args: ['1000'], cwd: daemon.dir });
        assert.ok(reply.result, JSON.stringify(reply.error));
        ids.push(reply.result.id);
      }
      const listed = (await call(1000, 'pane.list', {})).result.panes as { id: string; state: string }[];
      const running = listed.filter((p) => ids.includes(p.id) && p.state === 'running').length;
      const fdsAlive = descriptors(daemon);
      const rss = rssKiB(daemon.pid);
      // Killed over several connections at once: each kill waits for its pane's exit.
      const failed: string[] = [];
      await overConnections(daemon, ids.length, async (kill, item, id) => {
        const reply = await kill(id, 'pane.kill', { target: ids[item] });
        if (!reply.result) failed.push(JSON.stringify(reply.error));
      });
      const children = await settledChildren(daemon);
      const left = ((await call(3000, 'pane.list', {})).result.panes as { id: string }[]).filter((p) => ids.includes(p.id)).length;
      await quietConnections(call);
      const fdsAfter = await settledDescriptors(daemon, fdsBefore);
      report('R3 200 alive', { running, killFailures: failed.slice(0, 3), fdsBefore, fdsAlive, fdsAfter, daemonRssMiB: +(rss / 1024).toFixed(1), leftAfterKill: left, children: children.length });
      assert.equal(running, ALIVE_AT_ONCE);
      assert.deepEqual(failed, []);
      assert.ok(fdsAlive.host >= fdsBefore.host + ALIVE_AT_ONCE, 'the host holds a terminal per pane');
      assert.equal(left, 0);
      assert.deepEqual(children, []);
      assert.ok(fdsAfter.host <= fdsBefore.host, `host descriptors ${fdsBefore.host} before, ${fdsAfter.host} after`);
      assert.ok(fdsAfter.daemon <= fdsBefore.daemon, `daemon descriptors ${fdsBefore.daemon} before, ${fdsAfter.daemon} after`);
    } finally {
      client.destroy();
    }
  });
});
