import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE, paneWithAgent, userVar } from './harness.ts';

const seconds = (ms: number) => Math.floor(ms / 1000);

test('a non-idle self report whose ts is more than 6 hours old is not authoritative', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  const result = arbiter.observeOsc(userVar(`v1;agent=claude;state=working;ts=${seconds(clock.now() - 6 * HOUR) - 1}`));
  assert.equal(result?.reason, 'stale_ts');
  assert.equal(arbiter.view().state, 'unknown');
});

test('a non-idle report more than 5 minutes in the future is not authoritative', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  const result = arbiter.observeOsc(userVar(`v1;agent=claude;state=blocked;ts=${seconds(clock.now() + 5 * MINUTE) + 1}`));
  assert.equal(result?.reason, 'future_ts');
  const near = arbiter.observeOsc(userVar(`v1;agent=claude;state=blocked;ts=${seconds(clock.now() + 4 * MINUTE)}`));
  assert.equal(near?.accepted, true);
});

test('an accepted non-idle report stops being authoritative 6 hours after its ts', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeOsc(userVar(`v1;agent=claude;state=blocked;ts=${seconds(clock.now())}`));
  assert.equal(arbiter.view().state, 'blocked');
  assert.equal(arbiter.nextDeadline(), clock.now() + 6 * HOUR + 1);
  clock.advance(6 * HOUR + 1);
  assert.equal(arbiter.tick().length, 1);
  assert.equal(arbiter.view().state, 'unknown');
  const reportEvidence = arbiter.explain().evidence.find((entry) => entry.kind === 'report');
  assert.equal(reportEvidence?.authoritative, false);
  assert.match(reportEvidence?.note ?? '', /stale_ts/);
});

test('a resend resets the freshness window', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeOsc(userVar(`v1;agent=claude;state=blocked;ts=${seconds(clock.now())}`));
  clock.advance(5 * HOUR);
  arbiter.observeOsc(userVar(`v1;agent=claude;state=blocked;ts=${seconds(clock.now())}`));
  clock.advance(5 * HOUR);
  arbiter.tick();
  assert.equal(arbiter.view().state, 'blocked');
});

test('idle reports and reports without ts are trusted indefinitely', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  const old = arbiter.observeOsc(userVar(`v1;agent=claude;state=idle;ts=${seconds(clock.now() - 100 * HOUR)}`));
  assert.equal(old?.accepted, true);
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  clock.advance(100 * HOUR);
  arbiter.tick();
  assert.equal(arbiter.view().state, 'working');
  assert.equal(arbiter.nextDeadline(), null);
});

test('hook reports follow the same freshness windows', () => {
  const { arbiter, clock, hookPid } = paneWithAgent('claude');
  const result = arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', ts: seconds(clock.now() - 7 * HOUR), pid: hookPid });
  assert.equal(result.reason, 'stale_ts');
});
