import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { useDaemon } from '../helpers/session.ts';

describe('help text says what the commands do', () => {
  it('names the real default of agent wait --until and no empty default for pane spawn --env', async () => {
    const wait = await runCli(['agent', 'wait', '--help']);
    assert.equal(wait.code, 0, wait.stderr);
    assert.doesNotMatch(wait.stdout, /default: \[\]/);
    assert.match(wait.stdout.replace(/\s+/g, ' '), /--until <state> .*\(default: idle, done, blocked\)/);
    const spawn = await runCli(['pane', 'spawn', '--help']);
    assert.doesNotMatch(spawn.stdout, /default: \{\}/);
    assert.match(spawn.stdout, /--env <KEY=VALUE>/);
  });

  it('lists exit code 5 for an agent gone while waiting apart from 3 in corral --help', async () => {
    const help = await runCli(['--help']);
    assert.match(help.stdout, /^  3 +target not found or exited, or no agent there$/m);
    assert.match(help.stdout, /^  5 +agent wait: the agent exited or was released while waiting \(agent_gone\)$/m);
  });

  it('lists daemon stop with its --panes under corral daemon --help', async () => {
    const help = await runCli(['daemon', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /corral daemon stop --panes/);
  });
});

describe('server commands against a real daemon', () => {
  const session = useDaemon();
  const corral = (...args: string[]) => runCli(['--socket', session.daemon.socket, ...args]);

  it('ends server status with a newline', async () => {
    const status = await corral('server', 'status');
    assert.equal(status.code, 0, status.stderr);
    assert.ok(status.stdout.endsWith('\n'), JSON.stringify(status.stdout.slice(-20)));
  });

  it('exits non-zero from server reload-manifests and names the file that failed to load', async () => {
    const folder = join(session.daemon.dir, 'config', 'corral', 'agent-detection');
    mkdirSync(folder, { recursive: true });
    const broken = join(folder, 'broken.toml');
    writeFileSync(broken, 'this is = not [ toml\n');
    const reloaded = await corral('server', 'reload-manifests');
    assert.equal(reloaded.code, 1, reloaded.stderr);
    assert.match(reloaded.stderr, /broken\.toml/);
    assert.match(reloaded.stderr, /failed to load.*\[manifest_load_failed\]/);
    rmSync(broken);
    const fixed = await corral('server', 'reload-manifests');
    assert.equal(fixed.code, 0, fixed.stderr);
  });
});
