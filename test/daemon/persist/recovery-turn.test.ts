import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling as connect } from '../../../harness/raw-client.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { FAKE_CLAUDE } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

/** A scripted Claude in a pane of `daemon`, working on a turn held until `release` exists. */
async function startHeldTurn(daemon: DaemonProcess, dir: string, release: string, env: Record<string, string> = {}): Promise<{ id: string }> {
  const a = await connect(daemon);
  const pane = await a.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'turn', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_RELEASE: release, ...env } });
  await waitFor(async () => (await a.call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'the idle prompt box', timeoutMs: 60_000 });
  await a.call('agent.prompt', { target: pane.id, text: 'hold' });
  await waitFor(async () => (await a.call('agent.get', { target: pane.id })).state === 'working', { what: 'the held turn to work', timeoutMs: 60_000 });
  a.client.close();
  return pane;
}

/** The last event cursor: the stream goes on across the restart (the durable log), so what follows it is the new daemon's. */
async function cursorOf(daemon: DaemonProcess): Promise<number> {
  const a = await connect(daemon);
  const { cursor } = await a.call('events.cursor', {});
  a.client.close();
  return cursor;
}

describe('a turn across a daemon restart', () => {
  it('a restart in the middle of a turn: the recovered pane reads working, marked recovered, and the turn is reported done when it ends', async () => {
    const dir = makeTempDir();
    const release = join(dir, 'release');
    const first = await startDaemon({ dir });
    let second: DaemonProcess | undefined;
    try {
      const pane = await startHeldTurn(first, dir, release);
      const restartedAt = await cursorOf(first);

      // The service case: SIGTERM leaves the agent running in the pty host.
      await first.stop();
      second = await startDaemon({ dir });
      const b = await connect(second);
      const changes = async () =>
        (await b.call('events.read', { since: restartedAt })).events.filter((e: any) => e.pane?.id === pane.id && e.kind === 'agent.stateChanged');
      await waitFor(async () => (await changes()).some((e: any) => e.data.to !== 'unknown'), { what: 'the recomputed state', timeoutMs: 60_000 });
      const recomputed = (await changes()).find((e: any) => e.data.to !== 'unknown');
      assert.equal(recomputed.data.to, 'working', 'the turn still runs');
      assert.equal(recomputed.data.recovered, true, 'the recomputed state is marked recovered');
      for (const e of await changes()) assert.equal(e.data.recovered, true, `every state up to the recomputed one is marked recovered: ${JSON.stringify(e.data)}`);

      writeFileSync(release, '');
      await waitFor(async () => (await b.call('agent.get', { target: pane.id })).state === 'done', { what: 'the turn reported done', timeoutMs: 60_000 });
      const events = (await b.call('events.read', { since: restartedAt })).events.filter((e: any) => e.pane?.id === pane.id);
      const after = events.filter((e: any) => e.kind === 'agent.stateChanged' && !e.data.recovered);
      assert.deepEqual(after.map((e: any) => `${e.data.from}>${e.data.to}`), ['working>done'], 'one change after the recovered verdict: the turn ended; no new turn');
      assert.deepEqual(
        events.filter((e: any) => e.kind === 'agent.attention').map((e: any) => e.data.state),
        ['done'],
        'the finished turn asks for attention',
      );
      assert.match((await b.call('pane.read', { target: pane.id })).text, /Held turn complete\./);
      b.client.close();
    } finally {
      if (second) await second.dispose();
      await first.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // SIGTERM as a service stops, kill -9 as a crash: either way the pty host keeps the screen.
  for (const [how, stop] of [
    ['SIGTERM', (daemon: DaemonProcess) => daemon.stop()],
    ['kill -9', killDaemon],
  ] as const) {
    it(`a turn that ends while no daemon runs (${how}) comes back done, marked recovered with the time its output ended, and asks for attention once`, async () => {
      const dir = makeTempDir();
      const release = join(dir, 'release');
      const idleMark = join(dir, 'idle');
      const first = await startDaemon({ dir });
      let second: DaemonProcess | undefined;
      try {
        const pane = await startHeldTurn(first, dir, release, { FAKE_IDLE_MARK: idleMark });
        const restartedAt = await cursorOf(first);

        await stop(first);
        const releasedAt = Date.now();
        writeFileSync(release, '');
        // The turn's last screen is in the pty host before the next daemon starts.
        await waitFor(() => readFileSync(idleMark, 'utf8') === 'Held turn complete.', { what: 'the turn to end with no daemon', timeoutMs: 60_000 });
        second = await startDaemon({ dir });
        const listeningAt = Date.now(); // the new daemon took the pane back, with the host's word of its output, before it listened
        const b = await connect(second);
        await waitFor(async () => (await b.call('agent.get', { target: pane.id })).state === 'done', { what: 'the ended turn read done', timeoutMs: 60_000 });
        const events = (await b.call('events.read', { since: restartedAt })).events.filter((e: any) => e.pane?.id === pane.id);
        const changes = events.filter((e: any) => e.kind === 'agent.stateChanged');
        const trace = JSON.stringify(changes.map((e: any) => e.data));
        assert.ok(changes.every((e: any) => e.data.to !== 'idle'), `never plain idle: ${trace}`);
        const done = changes.filter((e: any) => e.data.to === 'done');
        assert.equal(done.length, 1, `one done: ${trace}`);
        // It read working on a half-replayed screen (SIGTERM) or on its still one read twice (kill -9),
        // settled there, and the done went out as a new turn.
        assert.equal(done[0].data.recovered, true, `the done reached while no daemon ran is marked recovered: ${trace}`);
        assert.equal(typeof done[0].data.outputEndedAt, 'number', 'it says when the host saw the output end');
        const { outputEndedAt } = done[0].data;
        assert.ok(outputEndedAt >= releasedAt && outputEndedAt <= listeningAt, `the output ended between the release and the new daemon's listening: ${trace}`);
        for (const e of changes) assert.equal(e.data.recovered, true, `every change up to it is marked recovered: ${trace}`);
        assert.deepEqual(
          events.filter((e: any) => e.kind === 'agent.attention').map((e: any) => e.data.state),
          ['done'],
          'the turn nobody announced asks for attention once',
        );
        b.client.close();
      } finally {
        if (second) await second.dispose();
        await first.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
