import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ancestry, descendants, ignoresTtou, isDescendant, parseStat, readForeground } from '../../src/terminal/procfs.ts';
import { cleanup, spawnBash, spawnCommand, waitFor, waitForScreen } from './helpers.ts';

test('parseStat splits at the last parenthesis, so comm may hold spaces and parens', () => {
  const line = '4242 (my (odd) prog) S 100 4242 4242 34816 4300 4194560 0 0 0 0';
  assert.deepEqual(parseStat(line), { pid: 4242, comm: 'my (odd) prog', ppid: 100, pgid: 4242, session: 4242, tpgid: 4300 });
  assert.equal(parseStat('garbage'), null);
});

test('ancestry and isDescendant follow ppid links from this process', () => {
  assert.ok(ancestry(process.pid).includes(process.ppid));
  assert.ok(isDescendant(process.pid, process.ppid));
  assert.ok(!isDescendant(process.ppid, process.pid));
  assert.equal(readForeground(999_999_999), null);
});

test('an idle shell is its own foreground group', async () => {
  const pane = spawnBash();
  try {
    await waitForScreen(pane, '$ ');
    const fg = await waitFor('foreground', () => pane.foreground());
    assert.equal(fg.pgid, pane.pid);
    assert.equal(fg.leader?.pid, pane.pid);
    assert.equal(fg.leader?.comm, 'bash');
    assert.match(fg.leader?.exe ?? '', /bash$/);
    assert.deepEqual(fg.leader?.argv, ['bash', '--norc', '--noprofile', '-i']);
  } finally {
    await cleanup(pane);
  }
});

test('an interactive shell ignores SIGTTOU and the jobs it starts do not', async () => {
  const pane = spawnBash();
  try {
    await waitForScreen(pane, '$ ');
    assert.equal(ignoresTtou(pane.pid), true, 'the job-control shell');
    pane.write('sleep 2\r');
    const fg = await waitFor('sleep in the foreground', () => {
      const current = pane.foreground();
      return current?.leader?.comm === 'sleep' ? current : null;
    });
    assert.equal(ignoresTtou(fg.leader!.pid), false, 'its job');
    assert.equal(ignoresTtou(999_999_999), false, 'a process that is gone');
  } finally {
    await cleanup(pane);
  }
});

test('a foreground sleep is seen, with a change event, and the shell again after', async () => {
  const pane = spawnBash();
  const changes: (string | null)[] = [];
  pane.onForegroundChange((fg) => changes.push(fg?.leader?.comm ?? null));
  try {
    await waitForScreen(pane, '$ ');
    pane.write('sleep 1\r');
    const fg = await waitFor('sleep in the foreground', () => {
      const current = pane.foreground();
      return current?.leader?.comm === 'sleep' ? current : null;
    });
    assert.notEqual(fg.pgid, pane.pid);
    assert.deepEqual(fg.leader?.argv, ['sleep', '1']);
    assert.match(fg.leader?.exe ?? '', /\/sleep$/);
    assert.ok(descendants(pane.pid).includes(fg.leader!.pid));
    await waitFor('the change events', () => changes.includes('sleep') && changes.at(-1) === 'bash', 4000);
  } finally {
    await cleanup(pane);
  }
});

test('a pipeline whose leader exited is still seen through its other members', async () => {
  const pane = spawnBash();
  try {
    await waitForScreen(pane, '$ ');
    // The first process of a pipeline leads its group; here it exits at once, and sleep stays.
    pane.write(`sh -c 'exit 0' | sleep 2\r`);
    const fg = await waitFor('the leaderless group', () => {
      const current = pane.foreground();
      return current && current.pgid !== pane.pid && current.leader === null ? current : null;
    });
    assert.deepEqual(
      fg.members.map((m) => m.comm),
      ['sleep'],
    );
    assert.equal(fg.members[0].pgid, fg.pgid);
  } finally {
    await cleanup(pane);
  }
});

test('CORRAL_AGENT in a member environment becomes its agent hint', async () => {
  const pane = spawnBash();
  try {
    await waitForScreen(pane, '$ ');
    pane.write('CORRAL_AGENT=x sleep 2\r');
    // Inside execve the kernel shows the new comm before the new command line and environment
    // exist; wait for the exec to finish (argv read), then the hint must be there.
    const fg = await waitFor('the hinted sleep', () => {
      const current = pane.foreground();
      return current?.leader?.comm === 'sleep' && current.leader.argv.length > 0 ? current : null;
    });
    assert.equal(fg.leader?.agentHint, 'x');
    const shell = await waitFor('the shell back', () => {
      const current = pane.foreground();
      return current?.leader?.comm === 'bash' ? current : null;
    }, 4000);
    assert.equal(shell.leader?.agentHint, null);
  } finally {
    await cleanup(pane);
  }
});

test('an exec that keeps the pid and the program name is still seen as a new foreground program', async () => {
  // The outer shell waits in a builtin (no child), then execs another shell: same pid, same comm.
  const pane = spawnCommand('printf "ready\\n"; read line; exec bash -c "printf replaced; read again" "$line"');
  const seen: string[][] = [];
  pane.onForegroundChange((fg) => seen.push(fg?.leader?.argv ?? []));
  try {
    await waitForScreen(pane, 'ready');
    const before = await waitFor('the first program', () => pane.foreground());
    assert.ok(!before.leader?.argv.includes('marker-42'));
    pane.write('marker-42\r');
    await waitForScreen(pane, 'replaced');
    const after = await waitFor('the replacing program', () => {
      const fg = pane.foreground();
      return fg?.leader?.argv.includes('marker-42') ? fg : null;
    });
    assert.equal(after.leader?.pid, before.leader?.pid);
    assert.ok(seen.some((argv) => argv.includes('marker-42')), 'a change event carried the new command line');
  } finally {
    await cleanup(pane);
  }
});
