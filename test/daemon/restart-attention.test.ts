import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../helpers/daemon.ts';
import { connectCalling as connect, killDaemon } from '../helpers/restart.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';
import { waitFor } from '../helpers/wait.ts';

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
      a.client.close();
      await killDaemon(first);
      writeFileSync(release, ''); // the turn ends with no daemon to see it

      const second = await start();
      const b = await connect(second);
      await waitFor(async () => (await b.call('agent.get', { target: pane.id })).state === 'done', { what: 'the ended turn read done', timeoutMs: 60_000 });
      await waitFor(() => notified(log).length === 1, { what: 'the one notification', timeoutMs: 20_000 });
      const cursor = (await b.call('events.cursor', {})).cursor;
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
        c.client.close();
      }
      assert.deepEqual(notified(log), [`${pane.id} done`], 'one notification in all');
    } finally {
      for (const daemon of daemons.reverse()) await daemon.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
