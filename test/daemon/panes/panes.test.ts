import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useDaemon } from '../../helpers/session.ts';
import { isAlive } from '../../../harness/proc.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('panes on real PTYs through the daemon', () => {
  const session = useDaemon();
  const { call, callError, screenContains } = session;

  const bash = (extra: Record<string, unknown> = {}) =>
    call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile'], cwd: session.daemon.dir, env: { PS1: '$ ' }, ...extra });

  it('spawns bash at 120x32, runs a command and reads it back from the screen', async () => {
    const pane = await bash();
    assert.match(pane.id, /^w1:p\d+$/);
    assert.deepEqual([pane.cols, pane.rows, pane.state], [120, 32, 'running']);
    await call('pane.send', { target: pane.id, text: 'echo hello-$((6*7))', keys: ['Enter'] });
    await screenContains(pane.id, 'hello-42');
    await call('pane.kill', { target: pane.id });
  });

  it('gives the pane its id, the socket and a truecolor xterm in the environment', async () => {
    const pane = await bash();
    await call('pane.send', { target: pane.id, text: 'echo "[$CORRAL_PANE|$CORRAL_SOCKET|$TERM|$COLORTERM]"', keys: ['Enter'] });
    await screenContains(pane.id, `[${pane.id}|${session.daemon.socket}|xterm-256color|truecolor]`);
    await call('pane.kill', { target: pane.id });
  });

  it('resizes the PTY so that the program sees the new size', async () => {
    const pane = await bash();
    const resized = await call('pane.resize', { target: pane.id, cols: 80, rows: 20 });
    assert.deepEqual([resized.cols, resized.rows], [80, 20]);
    await call('pane.send', { target: pane.id, text: 'stty size', keys: ['Enter'] });
    await screenContains(pane.id, '20 80');
    await call('pane.kill', { target: pane.id });
  });

  it('accepts a unique name wherever an id goes and refuses a second pane with it', async () => {
    const pane = await bash({ name: 'builder' });
    assert.equal(pane.name, 'builder');
    assert.equal((await call('pane.get', { target: 'builder' })).id, pane.id);
    const taken = await callError('pane.spawn', { command: 'bash', name: 'builder' });
    assert.deepEqual([taken.data.code, taken.data.id], ['name_taken', pane.id]);
    await call('pane.kill', { target: 'builder' });
    const reused = await bash({ name: 'builder' });
    assert.notEqual(reused.id, pane.id, 'ids are never reused');
    await call('pane.kill', { target: 'builder' });
  });

  it('reports the foreground process and the CORRAL_AGENT hint in pane.get', async () => {
    const pane = await bash({ env: { PS1: '$ ', CORRAL_AGENT: 'demo-agent' } });
    await call('pane.send', { target: pane.id, text: 'sleep 30', keys: ['Enter'] });
    const detail = await waitFor(async () => {
      const d = await call('pane.get', { target: pane.id });
      return d.process?.argv[0] === 'sleep' ? d : null;
    }, { what: 'sleep in the foreground' });
    assert.equal(detail.process.agentHint, 'demo-agent');
    assert.notEqual(detail.process.pgid, pane.pid);
    await call('pane.kill', { target: pane.id });
  });

  it('kills the pane process group and removes the pane', async () => {
    const pane = await bash();
    await call('pane.send', { target: pane.id, text: 'sleep 300 & echo bg=$!', keys: ['Enter'] });
    // The typed line itself shows "bg=$!": wait for the digits the shell printed.
    let found: RegExpExecArray | null = null;
    await waitFor(async () => (found = /bg=(\d+)/.exec((await call('pane.read', { target: pane.id })).text)), { what: 'the job pid' });
    const background = Number(found![1]);
    const killed = await call('pane.kill', { target: pane.id });
    assert.equal(killed.state, 'exited');
    await waitFor(() => !isAlive(pane.pid) && !isAlive(background), { what: 'the shell and its job to be gone' });
    assert.equal((await callError('pane.get', { target: pane.id })).data.code, 'pane_not_found');
    assert.ok(!(await call('pane.list')).panes.some((p: any) => p.id === pane.id));
  });

  it('kills an orphan of the pane that made a group of its own, which no hangup of the shell reaches', async () => {
    const pane = await bash();
    // `set -m` gives the sleep a group of its own; the subshell exits at once and leaves it to init.
    await call('pane.send', { target: pane.id, text: '(set -m; sleep 300 & echo orphan=$!)', keys: ['Enter'] });
    let found: RegExpExecArray | null = null;
    await waitFor(async () => (found = /orphan=(\d+)/.exec((await call('pane.read', { target: pane.id })).text)), { what: 'the orphan pid' });
    const orphan = Number(found![1]);
    assert.ok(isAlive(orphan));
    await call('pane.kill', { target: pane.id });
    await waitFor(() => !isAlive(orphan), { what: 'the orphan to be gone' });
  });

  it('keeps an exited pane listed with its exit code and its last screen readable', async () => {
    const pane = await call('pane.spawn', { command: 'sh', args: ['-c', 'echo last-words; exit 3'], cwd: session.daemon.dir });
    await waitFor(async () => (await call('pane.get', { target: pane.id })).state === 'exited', { what: 'exit' });
    const listed = (await call('pane.list')).panes.find((p: any) => p.id === pane.id);
    assert.deepEqual([listed.state, listed.exitCode], ['exited', 3]);
    assert.match((await call('pane.read', { target: pane.id })).text, /last-words/);
    assert.equal((await callError('pane.send', { target: pane.id, text: 'x' })).data.code, 'pane_exited');
    assert.equal((await callError('pane.resize', { target: pane.id, cols: 10, rows: 10 })).data.code, 'pane_exited');
    await call('pane.kill', { target: pane.id });
  });

  it('refuses a NUL inside args, which exec would cut short', async () => {
    // Before: `echo a\0b` ran `echo a`.
    const refused = await callError('pane.spawn', { command: 'echo', args: ['a\u0000b'], cwd: session.daemon.dir });
    assert.deepEqual([refused.data.code, refused.data.field], ['invalid_params', 'args[0]']);
  });

  it('answers spawn_failed with the reason when exec would fail: a missing #! interpreter, a missing env program, an argument too long', async () => {
    // Before: each made a pane that exited 126 or 127 (or 1) at once.
    const dir = session.daemon.dir;
    const script = (name: string, line: string) => {
      writeFileSync(join(dir, name), `${line}\necho never\n`, { mode: 0o755 });
      return join(dir, name);
    };
    const interpreter = await callError('pane.spawn', { command: script('a.sh', '#!/no/such/interpreter'), cwd: dir });
    assert.equal(interpreter.data.code, 'spawn_failed');
    assert.match(interpreter.message, /interpreter \/no\/such\/interpreter/);
    const viaEnv = await callError('pane.spawn', { command: script('b.sh', '#!/usr/bin/env no-such-runtime-here'), cwd: dir });
    assert.equal(viaEnv.data.code, 'spawn_failed');
    assert.match(viaEnv.message, /no-such-runtime-here is not in the pane's PATH/);
    const long = await callError('pane.spawn', { command: 'echo', args: ['\u20ac'.repeat(60_000)], cwd: dir }); // 180,000 bytes
    assert.equal(long.data.code, 'spawn_failed');
    assert.match(long.message, /args\[0\] is 180001 bytes.*argument list too long/);
    const fine = await call('pane.spawn', { command: script('c.sh', '#!/bin/sh'), cwd: dir });
    await call('pane.kill', { target: fine.id });
  });

  it('refuses a command that does not exist and an unknown key name', async () => {
    const missing = await callError('pane.spawn', { command: 'no-such-program-here', cwd: session.daemon.dir });
    assert.equal(missing.data.code, 'spawn_failed');
    assert.match(missing.message, /no-such-program-here/);
    const pane = await bash();
    const badKey = await callError('pane.send', { target: pane.id, keys: ['Enter', 'Hyper-Q'] });
    assert.deepEqual([badKey.code, badKey.data.code], [-32602, 'invalid_key']);
    await call('pane.kill', { target: pane.id });
  });
});
