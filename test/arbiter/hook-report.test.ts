import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPORT_LIMITS } from '../../src/arbiter/index.ts';
import { paneWithAgent } from './harness.ts';

test('a hook report with a state outside working, idle and blocked is rejected as invalid_report', () => {
  const { arbiter, hookPid } = paneWithAgent();
  const result = arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'done', pid: hookPid });
  assert.equal(result.accepted, false);
  assert.equal(result.reason, 'invalid_report');
});

test('hooks may not use the sources reserved for in-band reports', () => {
  const { arbiter } = paneWithAgent();
  assert.equal(arbiter.reportAgent({ source: 'osc1337', agent: 'claude', state: 'idle' }).reason, 'reserved_source');
  assert.equal(arbiter.reportAgent({ source: 'osc7501', agent: 'claude', state: 'idle' }).reason, 'reserved_source');
});

test('every field over its named limit is rejected, never thrown', () => {
  const { arbiter } = paneWithAgent();
  const long = (n: number) => 'x'.repeat(n + 1);
  const cases = [
    { source: long(REPORT_LIMITS.sourceChars), agent: 'claude', state: 'idle' },
    { source: 'hook:claude', agent: long(REPORT_LIMITS.agentChars), state: 'idle' },
    { source: 'hook:claude', agent: 'claude', state: 'idle', session: long(REPORT_LIMITS.sessionChars) },
    { source: 'hook:claude', agent: 'claude', state: 'idle', message: long(REPORT_LIMITS.messageChars) },
    { source: 'hook:claude', agent: 'claude', state: 'idle', seq: -1 },
    { source: 'hook:claude', agent: 'claude', state: 'idle', seq: 1.5 },
    { source: 'hook:claude', agent: 'claude', state: 'idle', pid: 0 },
    { source: 'hook:claude', agent: 'claude', state: 'idle', ts: Number.NaN },
  ];
  for (const params of cases) {
    assert.equal(arbiter.reportAgent(params).reason, 'invalid_report', JSON.stringify(params).slice(0, 80));
  }
});

test('a well-formed report with every field is accepted', () => {
  const { arbiter, hookPid, clock } = paneWithAgent();
  const result = arbiter.reportAgent({
    source: 'hook:claude', agent: 'claude', state: 'working', session: 's1', seq: 1, ts: clock.now() / 1000, message: 'tool: Bash', pid: hookPid,
  });
  assert.deepEqual({ accepted: result.accepted, reason: result.reason }, { accepted: true, reason: undefined });
  assert.equal(arbiter.view().state, 'working');
});
