import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOG_BURST } from '../../src/base/rate-limit.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

describe('a pane cannot flood the log', () => {
  const session = useDaemon();

  it('4 MB of random bytes: the log stays small, JSON only, without the pane output', async () => {
    const before = session.daemon.stderr().length;
    const pane = await session.call('pane.spawn', {
      command: 'sh',
      args: ['-c', 'for i in 1 2 3 4; do printf "SECRET-%s-MARK" 7f3a; head -c 1000000 /dev/urandom; done'],
      cwd: session.daemon.dir,
    });
    await waitFor(async () => (await session.call('pane.get', { target: pane.id })).state === 'exited', {
      timeoutMs: 120_000, // a hang guard: a loaded machine parses 4 MB slowly
      what: 'the pane to print its bytes and exit',
    });
    const log = session.daemon.stderr().slice(before);
    const lines = log.split('\n').filter((line) => line.length > 0);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `a log line that is not JSON: ${line.slice(0, 200)}`);
    assert.ok(!log.includes('SECRET-7f3a-MARK'), 'the pane output never reaches the log');
    const emulator = lines.filter((line) => line.includes('terminal emulator'));
    assert.ok(emulator.length <= LOG_BURST, `${emulator.length} emulator lines for one pane in a minute`);
    assert.ok(log.length < 16 * 1024, `the daemon logged ${log.length} bytes for one noisy pane`);
  });
});
