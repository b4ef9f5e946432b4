import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { makeTempDir } from '../../harness/daemon.ts';
import { useDaemon } from '../helpers/session.ts';

/** The environment of a running process, as the kernel holds it. */
function environOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').filter(Boolean);
  return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

/** A folder holding one program, `only-here`, found on no PATH but one naming that folder. */
function programFolder(): { bin: string; work: string } {
  const root = makeTempDir('corral-caller-');
  const bin = join(root, 'bin');
  const work = join(root, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  writeFileSync(join(bin, 'only-here'), '#!/bin/sh\necho "only-here ran in $(pwd)"\nexec sleep 300\n');
  chmodSync(join(bin, 'only-here'), 0o755);
  return { bin, work };
}

// Variables npm sets when the daemon is started through it, and one of the daemon's own.
const DAEMON_ONLY = { npm_lifecycle_event: 'daemon', npm_config_cache: '/tmp/npm-cache', DAEMON_ONLY_SETTING: 'x' };

describe('pane spawn from the CLI: the caller PATH and folder, and a clean base environment', () => {
  const session = useDaemon({ env: DAEMON_ONLY });
  const corral = (args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) => runCli(['--socket', session.daemon.socket, '--json', ...args], options);
  let folders: { bin: string; work: string };

  before(() => {
    folders = programFolder();
  });

  it("finds the command in the caller's PATH and starts it in the caller's folder", async () => {
    const env = { ...process.env, PATH: `${folders.bin}:${process.env.PATH}` };
    const spawned = await corral(['pane', 'spawn', '--name', 'found', '--', 'only-here'], { env, cwd: folders.work });
    assert.equal(spawned.code, 0, spawned.stderr);
    const pane = JSON.parse(spawned.stdout);
    assert.equal(pane.cwd, folders.work);
    await session.screenContains('found', `only-here ran in ${folders.work}`);
    const pid = (await session.call('pane.get', { target: 'found' })).pid;
    assert.equal(environOf(pid).get('PATH'), env.PATH);
    // --cwd still wins over the caller's folder.
    const elsewhere = await corral(['pane', 'spawn', '--cwd', session.daemon.dir, '--', 'only-here'], { env, cwd: folders.work });
    assert.equal(JSON.parse(elsewhere.stdout).cwd, session.daemon.dir);
  });

  it("starts a pane from the login's variables and what the spawn passed, not the daemon's whole environment", async () => {
    const spawned = await corral(['pane', 'spawn', '--name', 'clean', '--env', 'MINE=1', '--', 'sleep', '300']);
    assert.equal(spawned.code, 0, spawned.stderr);
    const pane = JSON.parse(spawned.stdout);
    const env = environOf(pane.pid);
    for (const key of env.keys()) assert.ok(!key.startsWith('npm_'), `${key} leaked into the pane`);
    assert.equal(env.has('DAEMON_ONLY_SETTING'), false);
    assert.equal(env.get('MINE'), '1');
    assert.equal(env.get('HOME'), process.env.HOME);
    assert.equal(env.get('CORRAL_SOCKET'), session.daemon.socket);
    assert.equal(env.get('CORRAL_PANE'), pane.id);
    assert.equal(env.get('TERM'), 'xterm-256color');
    assert.equal(env.get('XDG_STATE_HOME'), join(session.daemon.dir, 'state'));
  });
});

describe('pane spawn with [panes] use_caller = false and pass_env', () => {
  const dir = makeTempDir();
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  writeFileSync(join(dir, 'config', 'corral', 'config.toml'), '[panes]\nuse_caller = false\npass_env = ["DAEMON_API_KEY"]\n');
  const session = useDaemon({ dir, env: { DAEMON_API_KEY: 'k-123', DAEMON_OTHER: 'no' } });
  const corral = (args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) => runCli(['--socket', session.daemon.socket, '--json', ...args], options);

  it("looks the command up in the daemon's PATH and starts in the home folder", async () => {
    const folders = programFolder();
    const env = { ...process.env, PATH: `${folders.bin}:${process.env.PATH}` };
    const refused = await corral(['pane', 'spawn', '--', 'only-here'], { env, cwd: folders.work });
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stderr).error.code, 'spawn_failed');
    const spawned = await corral(['pane', 'spawn', '--', 'sleep', '300'], { env, cwd: folders.work });
    assert.equal(JSON.parse(spawned.stdout).cwd, homedir());
  });

  it('passes the daemon variables pass_env names, and no other', async () => {
    const pane = JSON.parse((await corral(['pane', 'spawn', '--', 'sleep', '300'])).stdout);
    const env = environOf(pane.pid);
    assert.equal(env.get('DAEMON_API_KEY'), 'k-123');
    assert.equal(env.has('DAEMON_OTHER'), false);
  });
});
