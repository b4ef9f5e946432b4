import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, agentRunning, pane, paneWithAgent, shellOnly, UNOBSERVABLE, userVar } from './harness.ts';

test('the live process decides identity', () => {
  const { arbiter } = paneWithAgent('claude');
  assert.equal(arbiter.view().agent, 'claude');
  assert.equal(arbiter.view().identity, 'process');
});

test('a self report naming another agent cannot rename the live process', () => {
  const { arbiter } = paneWithAgent('claude');
  const result = arbiter.observeOsc(userVar('v1;agent=impostor;state=working'));
  assert.equal(result?.reason, 'identity_conflict');
  assert.equal(arbiter.view().agent, 'claude');
  assert.equal(arbiter.view().state, 'unknown');
});

test('an external report without pid labels a pane where no agent runs', () => {
  const { arbiter } = pane();
  const result = arbiter.reportAgent({ source: 'custom:indexer', agent: 'indexer', state: 'working' });
  assert.equal(result.accepted, true);
  assert.deepEqual([arbiter.view().agent, arbiter.view().identity, arbiter.view().state], ['indexer', 'report', 'working']);
});

test('an external report without pid never overrides the identity of a live detected agent', () => {
  const { arbiter } = paneWithAgent('claude');
  const result = arbiter.reportAgent({ source: 'custom:indexer', agent: 'indexer', state: 'working' });
  assert.equal(result.reason, 'identity_conflict');
  assert.equal(arbiter.view().agent, 'claude');
});

test('a variable left by a program that exited never labels what runs next', () => {
  const { arbiter, tree } = pane();
  tree.spawn(300, 100);
  arbiter.observeProcess(shellOnly(300)); // a self-reporting program the matcher does not know
  arbiter.observeOsc(userVar('v1;agent=my-agent;state=working'));
  assert.equal(arbiter.view().agent, 'my-agent');
  tree.kill(300);
  arbiter.observeProcess(shellOnly(100));
  assert.equal(arbiter.view().agent, null);
  tree.spawn(400, 100, 'codex');
  arbiter.observeProcess(agentRunning('codex', 400));
  assert.equal(arbiter.view().agent, 'codex');
  assert.equal(arbiter.view().state, 'unknown');
});

test('where no process is observable, a reported identity expires 6 hours after it was sent', () => {
  const { arbiter, clock } = pane();
  arbiter.observeProcess(UNOBSERVABLE);
  arbiter.observeOsc(userVar('v1;agent=remote;state=idle'));
  clock.advance(6 * HOUR);
  arbiter.tick();
  assert.equal(arbiter.view().agent, 'remote');
  clock.advance(1);
  const changes = arbiter.tick();
  assert.equal(arbiter.view().agent, null);
  assert.equal(changes.length, 1);
});

test('a resend resets the identity window of an unobservable pane', () => {
  const { arbiter, clock } = pane();
  arbiter.observeProcess(UNOBSERVABLE);
  arbiter.observeOsc(userVar('v1;agent=remote;state=idle'));
  clock.advance(5 * HOUR);
  arbiter.observeOsc(userVar('v1;agent=remote;state=idle'));
  clock.advance(5 * HOUR);
  arbiter.tick();
  assert.equal(arbiter.view().agent, 'remote');
  assert.equal(arbiter.nextDeadline(), clock.now() + HOUR + 1);
});

test('where the process is observable, a reported identity does not expire with time', () => {
  const { arbiter, clock } = pane();
  arbiter.reportAgent({ source: 'custom:indexer', agent: 'indexer', state: 'idle' });
  clock.advance(48 * HOUR);
  arbiter.tick();
  assert.equal(arbiter.view().agent, 'indexer');
});
