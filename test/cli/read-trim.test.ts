import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { useDaemon } from '../helpers/session.ts';

describe('pane read and agent read print the rows with text', () => {
  const session = useDaemon();
  const corral = (...args: string[]) => runCli(['--socket', session.daemon.socket, ...args]);

  it('leave out the blank rows below the text unless --keep-blank, and --lines counts rows with text', async () => {
    const pane = await session.call('pane.spawn', { command: 'sh', args: ['-c', 'printf "one\\ntwo\\nthree\\n"; exec sleep 300'], cwd: session.daemon.dir, name: 'top-drawn', rows: 24 });
    await session.screenContains(pane.id, 'three');
    for (const group of ['pane', 'agent']) {
      const whole = await corral(group, 'read', 'top-drawn');
      assert.equal(whole.code, 0, whole.stderr);
      assert.equal(whole.stdout, 'one\ntwo\nthree\n', `${group} read`);
      assert.equal((await corral(group, 'read', 'top-drawn', '--lines', '2')).stdout, 'two\nthree\n', `${group} read --lines 2`);
      assert.equal((await corral(group, 'read', 'top-drawn', '--lines', '12')).stdout, 'one\ntwo\nthree\n', `${group} read --lines 12`);
      const kept = await corral(group, 'read', 'top-drawn', '--keep-blank');
      // 24 rows joined by 23 newlines: the last row is blank, so no newline is added after it.
      assert.equal(kept.stdout, `one\ntwo\nthree${'\n'.repeat(21)}`, `${group} read --keep-blank keeps all 24 rows`);
    }
    assert.equal((await corral('agent', 'read', 'top-drawn', '--source', 'detection', '--lines', '1')).stdout, 'three\n');
    assert.equal((await corral('pane', 'read', 'top-drawn', '--ansi', '--lines', '1')).stdout.replace(/\x1b\[[0-9;]*m/g, ''), 'three\n');
    assert.equal((await corral('pane', 'read', 'top-drawn', '--scrollback')).stdout, 'one\ntwo\nthree\n');
  });
});
