import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentRunning, paneWithAgent, shellOnly } from './harness.ts';

test('seed race 1: seq 41 working, 42 blocked, 43 working, with 42 arriving last, ends working', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  const report = (seq: number, state: string) => arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state, session: 's', seq, pid: hookPid });
  assert.equal(report(41, 'working').accepted, true);
  assert.equal(report(43, 'working').accepted, true);
  const late = report(42, 'blocked');
  assert.deepEqual({ accepted: late.accepted, reason: late.reason }, { accepted: false, reason: 'stale_seq' });
  assert.equal(arbiter.view().state, 'working');
});

test('seed race 2: generation 7\'s late seq 11 after generation 8 started is rejected', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  // Each agent process is one generation; restart until the pane is at generation 7.
  let pid = 200;
  while (arbiter.view().generation < 7) {
    tree.kill(pid);
    pid += 10;
    tree.spawn(pid, 100, 'claude');
    tree.spawn(pid + 1, pid);
    arbiter.observeProcess(agentRunning('claude', pid));
  }
  const gen7 = pid;
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session: 'gen7', seq: 10, pid: gen7 + 1 }).accepted, true);
  tree.kill(gen7);
  tree.kill(gen7 + 1);
  tree.spawn(900, 100, 'claude');
  tree.spawn(901, 900);
  arbiter.observeProcess(agentRunning('claude', 900));
  assert.equal(arbiter.view().generation, 8);
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'idle', session: 'gen8', seq: 1, pid: 901 }).accepted, true);

  const lateWithoutPid = arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', session: 'gen7', seq: 11 });
  assert.deepEqual({ accepted: lateWithoutPid.accepted, reason: lateWithoutPid.reason }, { accepted: false, reason: 'stale_generation' });
  const lateWithPid = arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', session: 'gen7', seq: 11, pid: gen7 + 1 });
  assert.equal(lateWithPid.accepted, false);
  assert.equal(arbiter.view().state, 'idle');
});

test('sequence is per source and agent process: a new session id does not reset the order', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session: 'a', seq: 50, pid: hookPid });
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'idle', session: 'b', seq: 1, pid: hookPid }).reason, 'stale_seq');
  assert.equal(arbiter.view().state, 'working');
  assert.equal(arbiter.reportAgent({ source: 'hook:other', agent: 'claude', state: 'idle', session: 'a', seq: 1, pid: hookPid }).accepted, true);
});

test('without seq, a replayed older report cannot undo a newer one', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  const now = Math.floor(Date.UTC(2026, 0, 1) / 1000);
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', ts: now - 5, pid: hookPid }).accepted, true);
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', ts: now, pid: hookPid }).accepted, true);
  const replay = arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', ts: now - 5, pid: hookPid });
  assert.equal(replay.reason, 'out_of_order');
  assert.equal(arbiter.view().state, 'blocked');
});

test('an equal seq is rejected as stale', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', seq: 5, pid: hookPid });
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'idle', seq: 5, pid: hookPid }).reason, 'stale_seq');
});

test('a new agent process restarts the sequence', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', seq: 90, pid: 201 });
  tree.kill(200);
  tree.spawn(300, 100, 'claude');
  tree.spawn(301, 300);
  arbiter.observeProcess(agentRunning('claude', 300));
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', seq: 1, pid: 301 }).accepted, true);
});

test('a report of a session from an exited process is rejected even after the shell returns', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session: 'old', pid: 201 });
  tree.kill(200);
  arbiter.observeProcess(shellOnly(100));
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', session: 'old' }).reason, 'stale_generation');
  assert.equal(arbiter.view().agent, null);
});

test('a session resumed by a new process is accepted when the report is bound by pid', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'idle', session: 'resumable', pid: 201 });
  tree.kill(200);
  tree.spawn(300, 100, 'claude');
  tree.spawn(301, 300);
  arbiter.observeProcess(agentRunning('claude', 300));
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session: 'resumable', pid: 301 }).accepted, true);
});

test('a released session rejects its late reports until it is reported again', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session: 's', pid: hookPid });
  arbiter.releaseAgent({ source: 'hook:claude', session: 's', pid: hookPid });
  assert.equal(arbiter.view().state, 'unknown');
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', session: 's', pid: hookPid }).reason, 'session_ended');
  assert.equal(arbiter.reportSession({ source: 'hook:claude', session: 's', pid: hookPid }).accepted, true);
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session: 's', pid: hookPid }).accepted, true);
});

test('releasing a source that never reported is rejected as no_report', () => {
  const { arbiter } = paneWithAgent('claude');
  assert.equal(arbiter.releaseAgent({ source: 'hook:claude' }).reason, 'no_report');
});
