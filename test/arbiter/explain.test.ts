import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PRECEDENCE } from '../../src/arbiter/index.ts';
import { paneWithAgent, userVar, verdict } from './harness.ts';

test('explain lists every evidence source with value, age and authority, and the deciding rule', () => {
  const { arbiter, clock, hookPid } = paneWithAgent('claude');
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session: 's', seq: 3, pid: hookPid });
  clock.advance(2000);
  arbiter.observeScreen(verdict('claude', 'blocked', 'permission_form'));
  clock.advance(500);
  const explain = arbiter.explain();
  assert.equal(explain.decidedBy, 'screen_rule');
  assert.deepEqual(explain.precedence, PRECEDENCE);
  const bySource = new Map(explain.evidence.map((entry) => [entry.source, entry]));
  assert.deepEqual(
    [bySource.get('process')?.decided, bySource.get('screen')?.decided, bySource.get('screen')?.ageMs],
    [true, true, 500],
  );
  const hook = bySource.get('hook:claude');
  assert.deepEqual([hook?.authoritative, hook?.decided, hook?.ageMs], [true, false, 2500]);
  assert.match(hook?.note ?? '', /last seq 3/);
});

test('explain keeps the last rejections with their reasons, bounded', () => {
  const { arbiter, hookPid } = paneWithAgent('claude', 200, 201, { rejectionLogSize: 3 });
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', seq: 10, pid: hookPid });
  for (let seq = 1; seq <= 5; seq += 1) arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'idle', seq, pid: hookPid });
  arbiter.observeOsc(userVar('v9;agent=claude;state=idle'));
  const rejections = arbiter.explain().rejections;
  assert.deepEqual(rejections.map((rejection) => rejection.reason), ['stale_seq', 'stale_seq', 'unknown_version']);
  assert.match(rejections[1]?.summary ?? '', /seq=5/);
});
