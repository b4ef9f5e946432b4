import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CORRAL_BIN, makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling } from '../../../harness/raw-client.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('a daemon started inside a pane', () => {
  it('cannot take the host over once the real daemon died, though it took the lock; the next daemon outside every pane does', async () => {
    const dir = makeTempDir();
    const first = await startDaemon({ dir });
    let second: DaemonProcess | undefined;
    try {
      const a = await connectCalling(first);
      const out = join(dir, 'in-pane-daemon.out');
      // Once the daemon is gone, the pane starts one of its own on the same socket.
      const script = `while kill -0 ${first.pid} 2>/dev/null; do sleep 0.05; done; "${process.execPath}" "${CORRAL_BIN}" daemon --socket "${first.socket}" > "${out}.part" 2>&1; echo "exit=$?" >> "${out}.part"; mv "${out}.part" "${out}"; exec sleep 600`;
      const pane = await a.call('pane.spawn', { command: 'sh', args: ['-c', script], cwd: dir, name: 'starter' });
      a.client.close();
      await killDaemon(first);
      await waitFor(() => existsSync(out), { what: 'the in-pane daemon to give up', timeoutMs: 60_000 });
      const said = readFileSync(out, 'utf8');
      assert.match(said, /refused this daemon \(pane_process\)/, said);
      assert.doesNotMatch(said, /exit=0/, said);
      assert.equal(existsSync(`${first.socket}.lock`), false, 'it let the lock go');

      second = await startDaemon({ dir });
      assert.deepEqual(second.hostPids(), first.hostPids(), 'the same host, taken over by the daemon that holds the lock');
      const b = await connectCalling(second);
      const listed = await b.call('pane.get', { target: pane.id });
      assert.deepEqual([listed.state, listed.recovered], ['running', true]);
      b.client.close();
    } finally {
      await second?.dispose();
      await first.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
