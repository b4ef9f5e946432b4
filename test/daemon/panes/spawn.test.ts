import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mkfifo } from '../../manifest-store/hostile-files.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('per-launch integration through pane.spawn', () => {
  const session = useDaemon();

  /** A program named `claude` (or `name`) that writes its arguments to a file and waits. */
  function fakeClaude(name = 'claude'): { command: string; out: string } {
    const dir = join(session.daemon.dir, 'bin');
    mkdirSync(dir, { recursive: true });
    const command = join(dir, name);
    // Written aside and renamed: the test never reads a file the program is still writing.
    writeFileSync(command, '#!/bin/sh\nprintf "%s\\n" "$@" > "$ARGS_OUT.tmp" && mv "$ARGS_OUT.tmp" "$ARGS_OUT"\nexec sleep 100\n');
    chmodSync(command, 0o755);
    return { command, out: join(session.daemon.dir, `args-${Date.now()}-${Math.random()}.txt`) };
  }

  const argsOf = async (file: string): Promise<string[]> => (await waitFor(() => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : null), { what: file }))!;

  it("adds Claude Code's hooks to the launch, pointing at this corral's report command", async () => {
    const { command, out } = fakeClaude();
    const pane = await session.call('pane.spawn', { command, args: ['--resume'], cwd: session.daemon.dir, env: { ARGS_OUT: out } });
    const args = await argsOf(out);
    assert.equal(args[0], '--settings');
    assert.equal(args.at(-1), '--resume');
    const hooks = JSON.parse(args[1]!).hooks;
    assert.match(hooks.Stop[0].hooks[0].command, /bin\/corral report --hook claude$/);
    await session.call('pane.kill', { target: pane.id });
  });

  it("reads the user's files it builds on as regular files only: a FIFO for Codex's config or Gemini's system defaults does not hold the spawn", async () => {
    const codexHome = join(session.daemon.dir, 'codex-home');
    mkdirSync(codexHome, { recursive: true });
    mkfifo(join(codexHome, 'config.toml'));
    const codex = fakeClaude('codex');
    const first = await session.call('pane.spawn', { command: codex.command, cwd: session.daemon.dir, env: { ARGS_OUT: codex.out, CODEX_HOME: codexHome } });
    const args = await argsOf(codex.out);
    assert.equal(args[0], '-c');
    assert.match(args[1]!, /^notify=\[.*report","--hook","codex"\]$/, 'no user notify to chain: the FIFO reads as none');
    const defaults = join(session.daemon.dir, 'defaults.fifo');
    mkfifo(defaults);
    const gemini = fakeClaude('gemini');
    const second = await session.call('pane.spawn', { command: gemini.command, cwd: session.daemon.dir, env: { ARGS_OUT: gemini.out, GEMINI_CLI_SYSTEM_DEFAULTS_PATH: defaults } });
    await argsOf(gemini.out);
    await session.call('pane.kill', { target: first.id });
    await session.call('pane.kill', { target: second.id });
  });

  it('adds the hooks when the agent runs under env, sh -c or node, without running anything to find out', async () => {
    const viaEnv = fakeClaude();
    const first = await session.call('pane.spawn', { command: '/usr/bin/env', args: ['MODE=x', viaEnv.command, '--resume'], cwd: session.daemon.dir, env: { ARGS_OUT: viaEnv.out } });
    const envArgs = await argsOf(viaEnv.out);
    assert.equal(envArgs[0], '--settings');
    assert.equal(envArgs.at(-1), '--resume');
    const viaShell = fakeClaude();
    const second = await session.call('pane.spawn', { command: '/bin/sh', args: ['-c', `exec '${viaShell.command}' --model opus`], cwd: session.daemon.dir, env: { ARGS_OUT: viaShell.out } });
    const shellArgs = await argsOf(viaShell.out);
    assert.equal(shellArgs[0], '--settings');
    assert.match(JSON.parse(shellArgs[1]!).hooks.Stop[0].hooks[0].command, /report --hook claude$/);
    assert.deepEqual(shellArgs.slice(2), ['--model', 'opus']);
    // A script named claude run by node: node takes an extensionless file as CommonJS.
    const script = join(session.daemon.dir, 'bin', 'node-bin', 'claude');
    mkdirSync(join(script, '..'), { recursive: true });
    writeFileSync(script, "const fs = require('fs'); const out = process.env.ARGS_OUT;\nfs.writeFileSync(out + '.tmp', process.argv.slice(2).join('\\n') + '\\n'); fs.renameSync(out + '.tmp', out); setInterval(() => {}, 1e6);\n");
    const nodeOut = join(session.daemon.dir, `args-node-${Date.now()}.txt`);
    const third = await session.call('pane.spawn', { command: process.execPath, args: ['--no-warnings', script, '-p'], cwd: session.daemon.dir, env: { ARGS_OUT: nodeOut } });
    const nodeArgs = await argsOf(nodeOut);
    assert.equal(nodeArgs[0], '--settings');
    assert.equal(nodeArgs.at(-1), '-p');
    for (const pane of [first, second, third]) await session.call('pane.kill', { target: pane.id });
  });

  it('leaves a shell line it cannot read exactly as it was', async () => {
    const { command, out } = fakeClaude();
    const pane = await session.call('pane.spawn', { command: '/bin/sh', args: ['-c', `'${command}' "$0"`, '--resume'], cwd: session.daemon.dir, env: { ARGS_OUT: out } });
    assert.deepEqual(await argsOf(out), ['--resume']);
    await session.call('pane.kill', { target: pane.id });
  });

  it('leaves the launch alone with integrate: false', async () => {
    const { command, out } = fakeClaude();
    const pane = await session.call('pane.spawn', { command, args: ['--resume'], cwd: session.daemon.dir, env: { ARGS_OUT: out }, integrate: false });
    assert.deepEqual(await argsOf(out), ['--resume']);
    await session.call('pane.kill', { target: pane.id });
  });
});
