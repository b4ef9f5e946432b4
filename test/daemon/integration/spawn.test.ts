import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mkfifo } from '../../manifest-store/hostile-files.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../helpers/wait.ts';

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

  it('leaves the launch alone with integrate: false', async () => {
    const { command, out } = fakeClaude();
    const pane = await session.call('pane.spawn', { command, args: ['--resume'], cwd: session.daemon.dir, env: { ARGS_OUT: out }, integrate: false });
    assert.deepEqual(await argsOf(out), ['--resume']);
    await session.call('pane.kill', { target: pane.id });
  });
});
