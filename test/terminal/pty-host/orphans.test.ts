import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

function stat(pid: number): { state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

function zombieChildrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const s = stat(pid);
      return s !== null && s.ppid === parent && s.state === 'Z';
    });
}

describe('the pty host keeps what its panes orphan', () => {
  const session = useDaemon();
  const hostPid = () => session.daemon.hostPids()[0]!;

  it("a pane's exit code is reported as its program gave it while the host reaps the orphans its panes leave", async () => {
    const go = join(session.daemon.dir, 'go');
    const until = (file: string) => `while [ ! -e ${file} ]; do sleep 0.02; done`;
    const wait = until(go);
    // Each leaves an orphan that ignores the hangup of its terminal (set before its parent exits)
    // and ends once `go` exists.
    const leavers = [];
    for (let i = 0; i < 3; i++) {
      const ready = join(session.daemon.dir, `ready-${i}`);
      const script = `(trap '' HUP; : > ${ready}; ${wait}; exit 3) & ${until(ready)}; echo "orphan=$!"; exit 7`;
      leavers.push(await session.call('pane.spawn', { command: 'sh', args: ['-c', script], cwd: session.daemon.dir }));
    }
    // These end at the same moment as the orphans.
    const enders = [];
    for (let i = 0; i < 3; i++) enders.push(await session.call('pane.spawn', { command: 'sh', args: ['-c', `${wait}; exit 5`], cwd: session.daemon.dir }));
    const orphans: number[] = [];
    for (const pane of leavers) {
      await waitFor(async () => (await session.call('pane.get', { target: pane.id })).state === 'exited', { what: `${pane.id} exited`, timeoutMs: 10_000 });
      assert.equal((await session.call('pane.get', { target: pane.id })).exitCode, 7);
      const orphan = Number(/orphan=(\d+)/.exec((await session.call('pane.read', { target: pane.id })).text)?.[1]);
      assert.equal(stat(orphan)?.ppid, hostPid(), `the orphan ${orphan} is the host's child`);
      orphans.push(orphan);
    }
    writeFileSync(go, '');
    for (const pane of enders) {
      await waitFor(async () => (await session.call('pane.get', { target: pane.id })).state === 'exited', { what: `${pane.id} exited`, timeoutMs: 10_000 });
      assert.equal((await session.call('pane.get', { target: pane.id })).exitCode, 5);
    }
    await waitFor(() => orphans.every((pid) => stat(pid) === null), { what: `the orphans ${orphans.join(', ')} reaped`, timeoutMs: 10_000 });
    assert.deepEqual(zombieChildrenOf(hostPid()), [], 'no zombie left under the host');
  });
});
