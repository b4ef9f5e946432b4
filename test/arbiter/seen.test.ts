import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paneWithAgent, userVar } from './harness.ts';

test('a completion from working to idle turns seen false and displays done', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  const [change] = arbiter.observeOsc(userVar('v1;agent=claude;state=idle'))?.changes ?? [];
  assert.deepEqual([arbiter.view().state, arbiter.view().seen, arbiter.view().displayed], ['idle', false, 'done']);
  assert.equal(change?.after.displayed, 'done');
});

test('a completion from blocked to idle also displays done', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=blocked'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  assert.equal(arbiter.view().displayed, 'done');
});

test('idle that follows no work is plain idle', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  assert.deepEqual([arbiter.view().seen, arbiter.view().displayed], [true, 'idle']);
});

test('focus or attach marks the pane seen, publishing one change', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  const revision = arbiter.view().revision;
  const changes = arbiter.markSeen();
  assert.equal(changes.length, 1);
  assert.deepEqual([arbiter.view().displayed, arbiter.view().revision], ['idle', revision + 1]);
  assert.deepEqual(arbiter.markSeen(), []);
});

test('reading a pane never marks it seen', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  arbiter.view();
  arbiter.explain();
  assert.equal(arbiter.view().displayed, 'done');
});

test('starting new work after done keeps the pane unseen until it completes and is seen', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  assert.equal(arbiter.view().displayed, 'working');
  arbiter.markSeen();
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  assert.equal(arbiter.view().displayed, 'done');
});
