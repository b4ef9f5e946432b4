import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSelfReport, programStatusReport, REPORT_LIMITS } from '../../src/arbiter/index.ts';

test('a full v1 value parses every field', () => {
  const parsed = parseSelfReport('v1;agent=my-agent;state=working;session=abc;pid=4242;ts=1767225600;ended=1');
  assert.deepEqual(parsed, {
    ok: true,
    report: { source: 'osc1337', agent: 'my-agent', state: 'working', session: 'abc', pid: 4242, ts: 1767225600, ended: true },
  });
});

test('unknown keys are ignored so the grammar can grow', () => {
  const parsed = parseSelfReport('v1;agent=a;colour=blue;state=idle;future=x=y');
  assert.deepEqual(parsed, { ok: true, report: { source: 'osc1337', agent: 'a', state: 'idle' } });
});

test('an unknown major version is ignored whole', () => {
  assert.deepEqual(parseSelfReport('v2;agent=a;state=working'), { ok: false, reason: 'unknown_version', detail: 'version v2 is not 1' });
});

test('a minor version of v1 is still v1', () => {
  assert.equal(parseSelfReport('v1.3;agent=a;state=blocked').ok, true);
});

test('a state outside the three is unknown and drives no indicator', () => {
  const parsed = parseSelfReport('v1;agent=a;state=thinking');
  assert.equal(parsed.ok && parsed.report.state, 'unknown');
});

test('a value without agent or state is rejected as invalid_report', () => {
  assert.equal(parseSelfReport('v1;state=idle').ok, false);
  assert.equal(parseSelfReport('v1;agent=a').ok, false);
  assert.equal(parseSelfReport('agent=a;state=idle').ok, false);
  assert.equal(parseSelfReport('v1;agent=has space;state=idle').ok, false);
});

test('an empty session, a malformed pid or ts are dropped, not fatal', () => {
  const parsed = parseSelfReport('v1;agent=a;state=idle;session=;pid=x;ts=-5;ended=yes');
  assert.deepEqual(parsed, { ok: true, report: { source: 'osc1337', agent: 'a', state: 'idle' } });
});

test('a value longer than the self-report limit is rejected', () => {
  const long = `v1;agent=a;state=idle;pad=${'x'.repeat(REPORT_LIMITS.selfReportChars)}`;
  const parsed = parseSelfReport(long);
  assert.equal(parsed.ok, false);
  assert.equal(!parsed.ok && parsed.reason, 'invalid_report');
});

test('OSC 7501 done and error end a turn and read as idle', () => {
  assert.deepEqual(programStatusReport({ state: 'done', fields: { app: 'codex' } }, null), { source: 'osc7501', agent: 'codex', state: 'idle' });
  assert.deepEqual(programStatusReport({ state: 'error', fields: {} }, 'codex'), { source: 'osc7501', agent: 'codex', state: 'idle' });
  assert.deepEqual(programStatusReport({ state: 'blocked', fields: { kind: 'permission' } }, 'codex'), { source: 'osc7501', agent: 'codex', state: 'blocked' });
});

test('OSC 7501 clear withdraws and a status naming no agent is not a report', () => {
  assert.equal(programStatusReport({ state: 'clear', fields: {} }, 'codex'), 'clear');
  assert.equal(programStatusReport({ state: 'working', fields: {} }, null), null);
});
