// The daemon's lock (`<socket>.lock`) is read as a regular file only, without blocking: a FIFO left
// in its place, in a socket folder others may write, cannot hold the start.
import assert from 'node:assert/strict';
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mkfifo } from '../../manifest-store/hostile-files.ts';
import { makeTempDir, startDaemon } from '../../../harness/daemon.ts';

describe('a lock file that is no regular file', () => {
  it('is a FIFO: taken for a stale lock, replaced, and the daemon listens', async () => {
    const dir = makeTempDir();
    const socket = join(dir, 'corral.sock');
    mkfifo(`${socket}.lock`);
    const daemon = await startDaemon({ dir, socket });
    try {
      assert.ok(lstatSync(`${socket}.lock`).isFile(), 'the daemon holds a lock file of its own');
      assert.equal(readFileSync(`${socket}.lock`, 'utf8').trim(), String(daemon.pid));
    } finally {
      await daemon.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
