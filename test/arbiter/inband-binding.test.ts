import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PaneArbiter, type InbandPolicy, type ProcessObservation } from '../../src/arbiter/index.ts';
import { ManualClock, TreeModel, userVar } from './harness.ts';

const BLOCKED = userVar('v1;agent=myagent;state=blocked');
const STATUS_BLOCKED = { kind: 'programStatus' as const, value: { state: 'blocked' as const, fields: { app: 'myagent' } } };

/** A job-control shell (pid 100, its own group) whose jobs each run in a group of their own. */
function shellPane(inband?: InbandPolicy) {
  const tree = Object.assign(new TreeModel(100), { isJobControlShell: (pid: number) => pid === 100 });
  const arbiter = new PaneArbiter({ clock: new ManualClock(), tree, ...(inband ? { inband } : {}) });
  const job = (pid: number, agent: string | null = null): ProcessObservation => {
    if (pid !== 100) tree.spawn(pid, 100);
    return { observable: true, leaderPid: pid, pgid: pid, agent, agentPid: agent === null ? null : pid };
  };
  arbiter.observeProcess(job(100));
  return { arbiter, tree, job };
}

test('by default an in-band report parsed while the shell holds the terminal at its prompt is refused', () => {
  const { arbiter } = shellPane();
  const outcome = arbiter.observeOsc(BLOCKED);
  assert.equal(outcome?.accepted, false);
  assert.equal(outcome?.reason, 'inband_unbound');
  assert.equal(arbiter.observeOsc(STATUS_BLOCKED)?.reason, 'inband_unbound');
  assert.equal(arbiter.view().state, 'unknown');
  assert.match(arbiter.explain().rejections[0]!.detail, /shell \(pid 100\) at its prompt/);
});

test('by default an in-band report counts while the group that held the terminal keeps it, and is dropped when it leaves', () => {
  const { arbiter, job } = shellPane();
  arbiter.observeProcess(job(300)); // `cat evil.txt`: its own group
  assert.equal(arbiter.observeOsc(BLOCKED)?.accepted, true);
  assert.equal(arbiter.view().state, 'blocked');
  assert.match(arbiter.explain().evidence.find((e) => e.source === 'osc1337')!.note, /bound to process group 300/);
  arbiter.observeProcess(job(300)); // looked at again: the same group still holds the terminal
  assert.equal(arbiter.view().state, 'blocked');
  arbiter.observeProcess(job(100)); // cat exited: the shell is back
  assert.equal(arbiter.view().agent, null);
  assert.equal(arbiter.view().state, 'unknown');
});

test('a report bound to a group is dropped when another group takes the terminal from the same agent process', () => {
  // The agent process stays the same (same generation), but a program it started took the foreground.
  const { arbiter } = shellPane();
  const agent: ProcessObservation = { observable: true, leaderPid: 200, pgid: 200, agent: 'myagent', agentPid: 200 };
  arbiter.observeProcess(agent);
  assert.equal(arbiter.observeOsc(BLOCKED)?.accepted, true);
  assert.equal(arbiter.view().state, 'blocked');
  const generation = arbiter.view().generation;
  arbiter.observeProcess({ ...agent, leaderPid: 210, pgid: 210 });
  assert.equal(arbiter.view().generation, generation, 'the same agent process');
  assert.notEqual(arbiter.view().state, 'blocked', 'the report of the group that left no longer counts');
});

test('an agent-like program that stays in the foreground keeps its report', () => {
  const { arbiter, job } = shellPane();
  arbiter.observeProcess(job(400));
  assert.equal(arbiter.observeOsc(BLOCKED)?.accepted, true);
  for (let i = 0; i < 3; i += 1) arbiter.observeProcess(job(400));
  assert.equal(arbiter.view().agent, 'myagent');
  assert.equal(arbiter.view().state, 'blocked');
  assert.equal(arbiter.view().source, 'report:osc1337');
});

test('inband = "any" counts every in-band report, the shell\'s included, wherever the foreground goes', () => {
  const { arbiter, job } = shellPane('any');
  assert.equal(arbiter.observeOsc(BLOCKED)?.accepted, true);
  arbiter.observeProcess(job(100));
  assert.equal(arbiter.view().state, 'blocked');
});

test('where no process can be observed, an in-band report is bound to no group', () => {
  const arbiter = new PaneArbiter({ clock: new ManualClock(), tree: new TreeModel(100) });
  arbiter.observeProcess({ observable: false, leaderPid: null, agent: null, agentPid: null });
  assert.equal(arbiter.observeOsc(BLOCKED)?.accepted, true);
  arbiter.observeProcess({ observable: false, leaderPid: null, agent: null, agentPid: null });
  assert.equal(arbiter.view().state, 'blocked');
});
