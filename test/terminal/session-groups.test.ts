import { test } from 'node:test';
import assert from 'node:assert/strict';
import { descendantsByChildren, readStat } from '../../src/terminal/procfs.ts';
import { sessionGroups, sessionGroupsByScan } from '../../src/terminal/session-groups.ts';
import { isAlive } from '../../harness/proc.ts';
import { cleanup, spawnCommand, waitFor, waitForScreen } from './helpers.ts';

const numbers = (screen: string, name: string): number => Number(new RegExp(`${name}=(\\d+)`).exec(screen)?.[1] ?? 0);

test('an orphan that made a group of its own is found in its session, as the full scan finds it', async () => {
  // `set -m` gives the background sleep a group of its own; the subshell then exits, orphaning it.
  const pane = spawnCommand(`(set -m; sleep 300 & echo "orphan=$!"); echo ready; sleep 300`);
  try {
    const orphan = numbers(await waitForScreen(pane, 'ready'), 'orphan');
    const stat = await waitFor('the orphan re-parented', () => {
      const now = readStat(orphan);
      return now !== null && now.ppid !== pane.pid && !(descendantsByChildren(pane.pid) ?? []).includes(orphan) ? now : null;
    });
    assert.equal(stat.session, pane.pid);
    assert.equal(stat.pgid, orphan, 'the orphan leads a group of its own');
    const groups = sessionGroups(pane.pid);
    assert.ok(groups.has(orphan), `the orphan's group among ${[...groups].join(', ')}`);
    assert.deepEqual([...groups].sort(), [...sessionGroupsByScan(pane.pid)].sort());
    await cleanup(pane);
    await waitFor('the orphan to end with its pane', () => !isAlive(orphan));
  } finally {
    pane.dispose();
  }
});

test('a member below a process that left the session is found; the process that left is not', async () => {
  // The perl process forks a sleep into a group of its own, then leaves the session with setsid.
  const script = `perl -MPOSIX -e '$| = 1; my $p = fork; if (!$p) { setpgid(0, 0); exec "sleep", "300" } POSIX::setsid(); print "left=$$ kept=$p\\n"; sleep 300' & wait`;
  const pane = spawnCommand(script);
  let left = 0;
  let kept = 0;
  try {
    const screen = await waitForScreen(pane, /kept=\d+/);
    left = numbers(screen, 'left');
    kept = numbers(screen, 'kept');
    await waitFor('the sleep in its own group', () => readStat(kept)?.pgid === kept && readStat(kept)?.comm === 'sleep');
    assert.equal(readStat(left)?.session, left);
    assert.equal(readStat(kept)?.session, pane.pid);
    const groups = sessionGroups(pane.pid);
    assert.ok(groups.has(kept), `the kept sleep's group among ${[...groups].join(', ')}`);
    assert.ok(!groups.has(left), 'the session that left is not signalled');
    assert.deepEqual([...groups].sort(), [...sessionGroupsByScan(pane.pid)].sort());
  } finally {
    await cleanup(pane);
    pane.dispose();
    if (left > 0 && isAlive(left)) process.kill(left, 'SIGKILL');
  }
  await waitFor('the kept sleep to end with its pane', () => !isAlive(kept));
});

test('a pane that has ended leaves only its own id to signal', async () => {
  const pane = spawnCommand('exit 0');
  await new Promise((resolve) => pane.onExit(resolve));
  assert.deepEqual([...sessionGroups(pane.pid)], [pane.pid]);
  pane.dispose();
});
