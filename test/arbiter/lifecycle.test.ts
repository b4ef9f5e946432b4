import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PaneArbiter } from '../../src/arbiter/index.ts';
import { ManualClock, TreeModel, agentRunning, pane, paneWithAgent, shellOnly, UNOBSERVABLE, userVar, verdict } from './harness.ts';

test('process exit publishes the final state once as released, then clears the identity', () => {
  const { arbiter, tree } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'blocked', 'permission_form'));
  tree.kill(200);
  const changes = arbiter.observeProcess(shellOnly(100));
  assert.equal(changes.length, 1);
  const [released] = changes;
  assert.equal(released?.kind, 'released');
  assert.deepEqual([released?.before.agent, released?.before.state], ['claude', 'blocked']);
  assert.deepEqual([released?.after.agent, released?.after.state], [null, 'unknown']);
  assert.deepEqual(arbiter.observeProcess(shellOnly(100)), []);
});

test('a restart of the same agent publishes released for the old process', () => {
  const { arbiter, tree } = paneWithAgent('claude');
  tree.kill(200);
  tree.spawn(300, 100, 'claude');
  const changes = arbiter.observeProcess(agentRunning('claude', 300));
  assert.deepEqual(changes.map((change) => change.kind), ['released']);
});

test('the pane exiting releases once and then accepts nothing more', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  const changes = arbiter.paneExited();
  assert.deepEqual(changes.map((change) => [change.kind, change.before.state]), [['released', 'working']]);
  assert.deepEqual(arbiter.paneExited(), []);
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: hookPid }).reason, 'pane_exited');
  assert.deepEqual(arbiter.observeScreen(verdict('claude', 'working', 'spinner')), []);
  assert.equal(arbiter.nextDeadline(), null);
});

test('the revision moves only when state, agent or seen change, never per output batch', () => {
  const { arbiter } = paneWithAgent('claude');
  const start = arbiter.view().revision;
  assert.equal(arbiter.observeScreen(verdict('claude', 'working', 'spinner')).length, 1);
  for (let frame = 0; frame < 50; frame += 1) {
    assert.deepEqual(arbiter.observeScreen(verdict('claude', 'working', frame % 2 === 0 ? 'spinner' : 'esc_to_interrupt')), []);
  }
  assert.equal(arbiter.view().revision, start + 1);
  assert.equal(arbiter.view().source, 'screen:esc_to_interrupt');
});

test('each change record carries the revision it produced', () => {
  const { arbiter } = paneWithAgent('claude');
  const [change] = arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  assert.equal(change?.revision, arbiter.view().revision);
  assert.equal(change?.before.revision, (change?.revision ?? 0) - 1);
});

test('stateSince marks when the state last changed', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  const since = clock.now();
  clock.advance(5000);
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  assert.equal(arbiter.view().stateSince, since);
});

test('ended=1 is ignored while its reporter is still the foreground group leader', () => {
  const { arbiter, tree } = pane();
  tree.spawn(300, 100);
  arbiter.observeProcess(shellOnly(300));
  arbiter.observeOsc(userVar('v1;agent=my-agent;state=idle;ended=1'));
  assert.deepEqual([arbiter.view().agent, arbiter.view().state], ['my-agent', 'idle']);
  tree.kill(300);
  arbiter.observeProcess(shellOnly(100));
  assert.equal(arbiter.view().agent, null);
});

test('ended=1 from a pid that no longer leads the foreground ends the classification', () => {
  const { arbiter, tree } = pane();
  tree.spawn(300, 100);
  tree.spawn(301, 300);
  arbiter.observeProcess(shellOnly(300));
  arbiter.observeOsc(userVar('v1;agent=my-agent;state=working;pid=301'));
  arbiter.observeOsc(userVar('v1;agent=my-agent;state=idle;pid=301;ended=1'));
  assert.equal(arbiter.view().agent, null);
});

test('ended=1 in a pane where no process is observable ends the classification', () => {
  const { arbiter } = pane();
  arbiter.observeProcess(UNOBSERVABLE);
  arbiter.observeOsc(userVar('v1;agent=remote;state=working'));
  assert.equal(arbiter.view().agent, 'remote');
  arbiter.observeOsc(userVar('v1;agent=remote;state=idle;ended=1'));
  assert.equal(arbiter.view().agent, null);
});

test('an exit during a pending debounce settles it first: the last screen is final', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt'));
  const changes = arbiter.paneExited();
  assert.deepEqual(changes.map((change) => [change.kind, change.before.state, change.after.state]), [['changed', 'working', 'idle'], ['released', 'idle', 'unknown']]);
});

test('reports may name the agent by an alias the daemon maps to its id', () => {
  const clock = new ManualClock();
  const tree = new TreeModel(100);
  tree.spawn(200, 100, 'claude');
  tree.spawn(201, 200);
  const arbiter = new PaneArbiter({ clock, tree, canonicalAgent: (agent) => (agent === 'claude-code' ? 'claude' : agent) });
  arbiter.observeProcess(agentRunning('claude', 200));
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude-code', state: 'working', pid: 201 }).accepted, true);
  assert.deepEqual([arbiter.view().agent, arbiter.view().state], ['claude', 'working']);
});
