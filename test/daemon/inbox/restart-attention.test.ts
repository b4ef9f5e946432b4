import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../helpers/cli.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling as connect } from '../../../harness/raw-client.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { FAKE_CLAUDE } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

/** A config whose notify command appends one line per notification to `file`. */
function notifyConfig(dir: string, file: string): void {
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  const script = `require('node:fs').appendFileSync(${JSON.stringify(file)}, process.argv[1] + ' ' + process.argv[2] + '\\n')`;
  writeFileSync(join(dir, 'config', 'corral', 'config.toml'), `[notify]\ncommand = [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(script)}, "{id}", "{state}"]\ncooldown_ms = 0\n`);
}

const notified = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') : []);

describe('attention across restarts', () => {
  it('a turn that ended while no daemon ran is announced once: later restarts with no new activity notify nobody', async () => {
    const dir = makeTempDir();
    const release = join(dir, 'release');
    const log = join(dir, 'notified.log');
    notifyConfig(dir, log);
    const daemons: DaemonProcess[] = [];
    const start = async () => {
      const daemon = await startDaemon({ dir });
      daemons.push(daemon);
      return daemon;
    };
    try {
      const first = await start();
      const a = await connect(first);
      const pane = await a.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'turn', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_RELEASE: release } });
      await waitFor(async () => (await a.call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'the idle prompt box', timeoutMs: 60_000 });
      await a.call('agent.prompt', { target: pane.id, text: 'hold' });
      await waitFor(async () => (await a.call('agent.get', { target: pane.id })).state === 'working', { what: 'the held turn to work', timeoutMs: 60_000 });
      const before = (await a.call('events.cursor', {})).cursor;
      a.client.close();
      await killDaemon(first);
      const releasedAt = Date.now();
      writeFileSync(release, ''); // the turn ends with no daemon to see it

      const second = await start();
      const listeningAt = Date.now(); // the new daemon took the pane back before it listened
      const b = await connect(second);
      await waitFor(async () => (await b.call('agent.get', { target: pane.id })).state === 'done', { what: 'the ended turn read done', timeoutMs: 60_000 });
      await waitFor(() => notified(log).length === 1, { what: 'the one notification', timeoutMs: 20_000 });
      const cursor = (await b.call('events.cursor', {})).cursor;
      const doneSince = (await b.call('agent.get', { target: pane.id })).stateSince as number;
      const since = (await b.call('events.read', { since: before })).events.filter((e: any) => e.pane?.id === pane.id);
      const attention = since.filter((e: any) => e.kind === 'agent.attention');
      assert.equal(attention.length, 1, JSON.stringify(since));
      const ended = since.find((e: any) => e.kind === 'agent.stateChanged' && e.data.seq === attention[0].data.seq);
      // Read straight from the replayed screen (not on the way through working), it says when the output ended.
      if (ended.data.recovered) {
        assert.ok(ended.data.outputEndedAt >= releasedAt && ended.data.outputEndedAt <= listeningAt, `output ended between the release and the new daemon's listening: ${JSON.stringify(ended.data)}`);
      }
      const { items } = await b.call('inbox.list', {});
      assert.deepEqual(items.map((item: any) => [item.pane.id, item.state, item.prompt]), [[pane.id, 'done', null]], 'the turn is in the inbox');
      b.client.close();

      for (const restart of [1, 2]) {
        await killDaemon(daemons.at(-1)!);
        const next = await start();
        const c = await connect(next);
        await waitFor(async () => (await c.call('agent.get', { target: pane.id })).state === 'done', { what: `done again after restart ${restart}`, timeoutMs: 60_000 });
        // The recomputed state has settled: what the replayed screen reads was published by now.
        await waitFor(async () => (await c.call('agent.get', { target: pane.id })).stateSince <= Date.now() - 1500, { what: 'the state to hold', timeoutMs: 30_000 });
        const read = await c.call('events.read', { since: cursor });
        const attention = read.events.filter((e: any) => e.kind === 'agent.attention');
        assert.deepEqual(attention, [], `restart ${restart}: no attention for a state merely recomputed: ${JSON.stringify(attention)}`);
        assert.deepEqual((await c.call('inbox.list', {})).items, items, `restart ${restart}: the inbox holds the same item`);
        // Its age too: stateSince is when done began (the log's event time, taken in the same turn), not the restart.
        const since = (await c.call('agent.get', { target: pane.id })).stateSince as number;
        assert.ok(Math.abs(since - doneSince) < 1000, `restart ${restart}: stateSince ${since}, done since ${doneSince}`);
        c.client.close();
      }
      assert.deepEqual(notified(log), [`${pane.id} done`], 'one notification in all');

      // Acknowledged items stay acknowledged: by an unknown id nothing, by focusing the pane its item.
      const socket = daemons.at(-1)!.socket;
      const wrong = await runCli(['--socket', socket, 'inbox', 'ack', '999']);
      assert.equal(wrong.code, 0, wrong.stderr);
      assert.match(wrong.stdout, /acknowledged 0 items \(not in the inbox: 999\)/);
      const listed = await runCli(['--socket', socket, 'inbox']);
      assert.match(listed.stdout, new RegExp(`^${items[0].id}\\s+${pane.id} \\(turn\\)\\s+claude\\s+done`, 'm'));
      const d = await connect(daemons.at(-1)!);
      await d.call('agent.focus', { target: pane.id });
      assert.deepEqual((await d.call('inbox.list', {})).items, [], 'focusing the pane acknowledged its item');
      d.client.close();
      await killDaemon(daemons.at(-1)!);
      const last = await start();
      const e = await connect(last);
      await waitFor(async () => (await e.call('agent.get', { target: pane.id })).state !== 'unknown', { what: 'the state read again', timeoutMs: 60_000 });
      assert.deepEqual((await e.call('inbox.list', {})).items, [], 'still acknowledged after a restart');
      assert.equal((await runCli(['--socket', last.socket, 'inbox'])).stdout, 'nothing asks for attention\n');
      e.client.close();
      assert.deepEqual(notified(log), [`${pane.id} done`], 'still one notification');
    } finally {
      for (const daemon of daemons.reverse()) await daemon.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
