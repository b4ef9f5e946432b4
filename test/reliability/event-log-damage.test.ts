import assert from 'node:assert/strict';
import { closeSync, openSync, readdirSync, rmSync, statSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eventLogDir } from '../../src/daemon/events/index.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling, RawClient } from '../../harness/raw-client.ts';
import { waitFor } from '../../harness/wait.ts';

type Call = (method: string, params?: unknown) => Promise<any>;

/** Every retained event after `since`, page by page. */
async function readAll(call: Call, since: number, epoch?: string): Promise<any[]> {
  const events: any[] = [];
  for (;;) {
    const page = await call('events.read', { since, ...(epoch !== undefined ? { epoch } : {}) });
    events.push(...page.events);
    if (!page.more) return events;
    since = page.cursor;
  }
}

/** Panes named `${label}-i` that exit at once; resolves once the daemon published every exit. */
async function publish(call: Call, label: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) await call('pane.spawn', { command: 'true', name: `${label}-${i}` });
  const exits = async () => (await readAll(call, (await call('events.cursor', {})).oldest - 1)).filter((e) => e.kind === 'pane.exited' && e.pane?.name?.startsWith(`${label}-`)).length;
  await waitFor(async () => (await exits()) === count, { what: `the exits of ${label}-*`, timeoutMs: 60_000 });
}

const damages: Record<string, (path: string) => void> = {
  'overwritten with 200 zero bytes in its middle': (path) => {
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(200), 0, 200, Math.floor(statSync(path).size / 2) - 100);
    closeSync(fd);
  },
  'cut in half': (path) => truncateSync(path, Math.floor(statSync(path).size / 2)),
  deleted: (path) => unlinkSync(path),
};

describe('a damaged event log never hands a cursor out twice (real daemons, real socket)', () => {
  for (const [what, damage] of Object.entries(damages)) {
    it(`newest segment ${what}: no cursor a client saw names another event, a client resuming from its last one gets every new event, and the log says so`, async () => {
      const dir = makeTempDir();
      const daemons: DaemonProcess[] = [];
      const start = async () => {
        const daemon = await startDaemon({ dir });
        daemons.push(daemon);
        return { daemon, ...(await connectCalling(daemon)) };
      };
      try {
        // Two daemons' lives, each stopped: the log ends in the second's segment.
        const seen = new Map<number, unknown>();
        let epoch = '';
        for (const round of ['one', 'two']) {
          const { daemon, client, call } = await start();
          await publish(call, round, 10);
          for (const event of await readAll(call, 0)) seen.set(event.cursor, event);
          epoch = (await call('events.cursor', {})).epoch;
          client.close();
          await daemon.stop();
        }
        const last = Math.max(...seen.keys());
        const folder = eventLogDir(join(dir, 'state', 'corral'), join(dir, 'corral.sock'));
        const newest = readdirSync(folder).filter((name) => name.startsWith('seg-')).sort().at(-1)!;
        damage(join(folder, newest));

        const { daemon, client, call } = await start();
        const warning = daemon.stderr().split('\n').find((line) => line.includes('event log lost events'));
        assert.ok(warning?.includes(newest), `the daemon's log names the damaged segment ${newest}:\n${daemon.stderr()}`);
        // The client that saw the last cursor resumes from it before anything new is published.
        const resumer = await RawClient.connect(daemon.socket);
        const resumed = await resumer.call(1, 'events.subscribe', { since: last, epoch });
        assert.equal(resumed.error, undefined, `resumes from ${last}: ${JSON.stringify(resumed.error)}`);
        await publish(call, 'three', 10);
        const now = await call('events.cursor', {});
        assert.equal(now.epoch, epoch, 'the same stream goes on');
        const fresh = await readAll(call, now.oldest - 1);
        assert.ok(fresh.length >= 20, `the new events: ${fresh.length}`);
        assert.ok(fresh.every((event) => event.cursor > last), `every new cursor is above ${last}: ${fresh.map((e) => e.cursor).join(' ')}`);
        const received: any[] = [];
        while (received.length < fresh.length) received.push((await resumer.next(30_000)).params);
        assert.deepEqual(received, fresh, 'the resuming client gets every new event, in order');
        // Read back from every cursor a client saw: either the same event, or a clear refusal.
        for (const [cursor, event] of seen) {
          const reply = await client.call(1000 + cursor, 'events.read', { since: cursor - 1, epoch, limit: 1 });
          if (reply.error) assert.equal(reply.error.data.code, 'cursor_too_old', `cursor ${cursor}: ${JSON.stringify(reply.error)}`);
          else assert.deepEqual(reply.result.events[0], event, `cursor ${cursor} names the event it named`);
        }
        resumer.close();
        client.close();
      } finally {
        for (const daemon of daemons.reverse()) await daemon.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
