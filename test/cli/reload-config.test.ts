import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { makeTempDir } from '../../harness/daemon.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

describe('config reload: corral server reload-config and SIGHUP', () => {
  const session = useDaemon();
  const corral = (args: string[], cwd?: string) => runCli(['--socket', session.daemon.socket, ...args], cwd !== undefined ? { cwd } : {});
  let file: string;
  let folder: string;

  before(() => {
    mkdirSync(join(session.daemon.dir, 'config', 'corral'), { recursive: true });
    file = join(session.daemon.dir, 'config', 'corral', 'config.toml');
    folder = makeTempDir('corral-reload-');
  });

  /** The folder a pane spawned from `folder` without --cwd starts in. */
  async function spawnedCwd(): Promise<string> {
    const spawned = await corral(['--json', 'pane', 'spawn', '--', 'sleep', '300'], folder);
    assert.equal(spawned.code, 0, spawned.stderr);
    return JSON.parse(spawned.stdout).cwd;
  }

  it('applies the live keys at once and names those that need a restart', async () => {
    assert.equal(await spawnedCwd(), folder);
    writeFileSync(file, '[panes]\nuse_caller = false\nkeep_exited = 1\n\n[events]\nretain = 500\n');
    const reloaded = await corral(['server', 'reload-config']);
    assert.equal(reloaded.code, 0, reloaded.stderr);
    assert.match(reloaded.stdout, new RegExp(`^config: ${file}$`, 'm'));
    assert.match(reloaded.stdout, /^took effect: panes\.keep_exited, panes\.use_caller$/m);
    assert.match(reloaded.stdout, /^need a restart .*: events\.retain$/m);
    assert.equal(await spawnedCwd(), homedir());

    // keep_exited = 1: the second pane to exit removes the first.
    const first = JSON.parse((await corral(['--json', 'pane', 'spawn', '--cwd', folder, '--', 'true'])).stdout).id;
    await waitFor(async () => (await session.call('pane.get', { target: first })).state === 'exited', { what: 'the first exit' });
    await corral(['pane', 'spawn', '--cwd', folder, '--', 'true']);
    await waitFor(async () => !(await session.call('pane.list')).panes.some((pane: { id: string }) => pane.id === first), { what: 'the first exited pane removed', timeoutMs: 15_000 });

    const again = await corral(['--json', 'server', 'reload-config']);
    assert.deepEqual(JSON.parse(again.stdout), { file, applied: [], restart: ['events.retain'] });
  });

  it('changes nothing for a broken file and says where it is broken', async () => {
    writeFileSync(file, '[panes]\nuse_caller = true\nkeep_exitd = 3\n');
    const refused = await corral(['server', 'reload-config']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`${file}:3: unknown key "panes.keep_exitd".*keeps the settings it had \\[config_invalid\\]`));
    assert.equal(await spawnedCwd(), homedir(), 'use_caller is still false');
  });

  it('reloads on SIGHUP too', async () => {
    writeFileSync(file, '[panes]\nuse_caller = true\n');
    session.daemon.child.kill('SIGHUP');
    await waitFor(() => /"applied":\["panes\.keep_exited","panes\.use_caller"\][^\n]*"msg":"config reloaded"/.test(session.daemon.stderr()), { what: 'the reload logged', timeoutMs: 15_000 });
    assert.equal(await spawnedCwd(), folder);
  });
  it('starts running a notify command set by a reload, with no restart', async () => {
    const log = join(folder, 'notified.log');
    writeFileSync(file, `[notify]\ncommand = ["sh", "-c", "echo \\"$1 $2\\" >> ${log}", "sh", "{name}", "{state}"]\n`);
    const reloaded = await corral(['--json', 'server', 'reload-config']);
    assert.equal(reloaded.code, 0, reloaded.stderr);
    assert.deepEqual(JSON.parse(reloaded.stdout).applied, ['notify.command']);
    const id = await session.fakeAgent(100, { name: 'notifier' });
    await session.call('agent.prompt', { target: id, text: 'write it' });
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('notifier done'), { what: 'the notify command to run', timeoutMs: 30_000 });
  });
});
