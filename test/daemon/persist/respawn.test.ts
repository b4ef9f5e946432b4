import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling } from '../../../harness/raw-client.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { waitFor } from '../../../harness/wait.ts';

/** A program named `claude` that writes its arguments to $ARGS_OUT and waits until its pid is killed. */
function fakeClaude(dir: string): string {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  const command = join(dir, 'bin', 'claude');
  // Written aside and renamed: the test never reads a file the program is still writing.
  writeFileSync(command, '#!/bin/sh\nprintf "%s\\n" "$@" > "$ARGS_OUT.tmp" && mv "$ARGS_OUT.tmp" "$ARGS_OUT"\nexec sleep 100\n');
  chmodSync(command, 0o755);
  return command;
}

const argsOf = async (file: string): Promise<string[]> =>
  (await waitFor(() => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : null), { what: file, timeoutMs: 30_000 }))!;

describe('--no-integrate stays with the pane', () => {
  it('a respawn, also after a daemon restart that recovered the pane, starts the agent without hooks again', async () => {
    const dir = makeTempDir();
    const first = await startDaemon({ dir });
    let second: DaemonProcess | undefined;
    try {
      const command = fakeClaude(dir);
      const out = join(dir, 'args.txt');
      const calling = await connectCalling(first);
      const plain = await calling.call('pane.spawn', { command, args: ['--resume'], cwd: dir, env: { ARGS_OUT: out }, integrate: false, name: 'plain' });
      assert.deepEqual(await argsOf(out), ['--resume']);

      // Exited, then respawned by the same daemon.
      rmSync(out);
      process.kill(plain.pid, 'SIGKILL');
      await waitFor(async () => (await calling.call('pane.get', { target: 'plain' })).state === 'exited', { what: 'the pane to exit', timeoutMs: 30_000 });
      const again = await calling.call('pane.respawn', { target: 'plain' });
      assert.deepEqual(await argsOf(out), ['--resume'], 'no --settings on the respawn');

      // The daemon dies; the next one recovers the running pane from the pty host and respawns it the same way.
      calling.client.close();
      await killDaemon(first);
      second = await startDaemon({ dir });
      const next = await connectCalling(second);
      assert.equal((await next.call('pane.get', { target: 'plain' })).recovered, true);
      rmSync(out);
      process.kill(again.pid, 'SIGKILL');
      await waitFor(async () => (await next.call('pane.get', { target: 'plain' })).state === 'exited', { what: 'the recovered pane to exit', timeoutMs: 30_000 });
      await next.call('pane.respawn', { target: 'plain' });
      assert.deepEqual(await argsOf(out), ['--resume'], 'no --settings on the respawn after a restart');

      // A pane spawned with hooks keeps them on its respawn.
      const hooked = join(dir, 'hooked.txt');
      const withHooks = await next.call('pane.spawn', { command, cwd: dir, env: { ARGS_OUT: hooked }, name: 'hooked' });
      assert.equal((await argsOf(hooked))[0], '--settings');
      rmSync(hooked);
      process.kill(withHooks.pid, 'SIGKILL');
      await waitFor(async () => (await next.call('pane.get', { target: 'hooked' })).state === 'exited', { what: 'the hooked pane to exit', timeoutMs: 30_000 });
      await next.call('pane.respawn', { target: 'hooked' });
      assert.equal((await argsOf(hooked))[0], '--settings');
      next.client.close();
    } finally {
      await second?.dispose();
      await first.dispose();
    }
  });
});
