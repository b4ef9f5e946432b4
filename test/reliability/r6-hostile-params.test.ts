// R6, hostile parameters: absurd sizes, missing commands and folders, a huge environment, names with
// newlines, control characters or 10,000 characters, and a name shaped like an id. Each gets a clear
// error with a stable code, and nothing is lost: the panes that were there stay, and still work.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { isAlive } from '../../harness/proc.ts';
import { report } from '../../harness/figures.ts';

describe('R6, hostile parameters', () => {
  let daemon: DaemonProcess;
  let client: RawClient;
  let id = 1;
  const call = (method: string, params: unknown) => client.call(id++, method, params);

  before(async () => {
    daemon = await startDaemon();
    client = await RawClient.connect(daemon.socket);
  });
  after(async () => {
    client?.close();
    await daemon?.dispose();
  });

  it('refuses each hostile parameter with a stable code and loses nothing', { timeout: 120_000 }, async () => {
    const keeper = await call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile'], name: 'keeper', cwd: daemon.dir });
    assert.ok(keeper.result, JSON.stringify(keeper.error));
    const refused: Record<string, string> = {};
    const accepted: string[] = [];
    const attempt = async (what: string, method: string, params: unknown) => {
      const reply = await call(method, params);
      if (reply.error) {
        assert.equal(typeof reply.error.data?.code, 'string', `${what}: ${JSON.stringify(reply.error)}`);
        assert.ok(reply.error.message.length > 0, what);
        refused[what] = reply.error.data.code;
      } else {
        accepted.push(what);
        if (method === 'pane.spawn') await call('pane.kill', { target: reply.result.id });
      }
    };

    for (const [cols, rows] of [[0, 0], [1, 1], [10_000, 10_000], [65_535, 65_535], [-1, 5], [2.5, 10]]) {
      await attempt(`resize ${cols}x${rows}`, 'pane.resize', { target: 'keeper', cols, rows });
    }
    for (const [cols, rows] of [[0, 0], [65_535, 65_535]]) {
      await attempt(`spawn at ${cols}x${rows}`, 'pane.spawn', { command: 'true', cwd: daemon.dir, cols, rows });
    }
    await attempt('spawn a missing command', 'pane.spawn', { command: '/nonexistent/command-that-is-not-there', cwd: daemon.dir });
    await attempt('spawn in a missing cwd', 'pane.spawn', { command: 'bash', cwd: '/nonexistent/folder' });
    await attempt('spawn with a huge environment', 'pane.spawn', {
      command: 'true',
      cwd: daemon.dir,
      // 800 KB in four variables, each over the kernel's 128 KiB limit for one string (E2BIG), under the frame limit.
      env: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`HUGE_${i}`, 'x'.repeat(200_000)])),
    });
    await attempt('a name with a newline', 'pane.spawn', { command: 'true', name: 'one\ntwo', cwd: daemon.dir });
    await attempt('a name with control characters', 'pane.spawn', { command: 'true', name: 'bell\u0007esc\u001b[2J', cwd: daemon.dir });
    await attempt('a name of 10,000 characters', 'pane.spawn', { command: 'true', name: 'n'.repeat(10_000), cwd: daemon.dir });
    await attempt('a name shaped like an id', 'pane.spawn', { command: 'true', name: keeper.result.id, cwd: daemon.dir });
    await attempt('a name taken by another pane', 'pane.spawn', { command: 'true', name: 'keeper', cwd: daemon.dir });

    report('R6 hostile parameters', { refused, accepted });
    // A resize within range is the only hostile-looking request a terminal may take; every other is refused.
    assert.deepEqual(accepted.filter((what) => !/^resize 1x1$/.test(what)), []);
    assert.equal(refused['spawn a missing command'], 'spawn_failed');
    assert.equal(refused['a name taken by another pane'], 'name_taken');

    // Nothing lost: the keeper pane is still there, at a sane size, and still runs commands.
    const panes = (await call('pane.list', {})).result;
    const list = Array.isArray(panes) ? panes : panes.panes;
    assert.ok(list.some((p: { name: string }) => p.name === 'keeper'));
    assert.equal(list.length, 1, `only the keeper is left: ${JSON.stringify(list.map((p: { name: string }) => p.name))}`);
    await call('pane.resize', { target: 'keeper', cols: 80, rows: 24 });
    await call('pane.send', { target: 'keeper', text: 'echo still-$((40+2))', keys: ['Enter'] });
    let screen = '';
    for (let i = 0; i < 100 && !screen.includes('still-42'); i += 1) {
      screen = (await call('pane.read', { target: 'keeper' })).result.text;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(screen, /still-42/);
    assert.ok(isAlive(daemon.pid));
  });
});
