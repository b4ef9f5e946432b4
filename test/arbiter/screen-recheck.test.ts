import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paneWithAgent, verdict } from './harness.ts';

test('a verdict resting on a time window is a deadline: due once its clock reaches it, spent by the tick after', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner_line', { recheckAt: clock.now() + 1500 }));
  assert.equal(arbiter.nextDeadline(), clock.now() + 1500);
  assert.equal(arbiter.screenRecheckDue(), false);
  clock.advance(1500);
  assert.equal(arbiter.screenRecheckDue(), true, 'the caller evaluates the screen again now');
  arbiter.tick();
  assert.equal(arbiter.screenRecheckDue(), false);
  assert.equal(arbiter.nextDeadline(), null, 'a spent recheck never fires again');
});

test('a new verdict replaces the recheck of the one before', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner_line', { recheckAt: clock.now() + 1500 }));
  arbiter.observeScreen(verdict('claude', 'working', 'interrupt_footer'));
  assert.equal(arbiter.nextDeadline(), null);
  clock.advance(2000);
  assert.equal(arbiter.screenRecheckDue(), false);
});
