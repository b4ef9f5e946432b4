import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ArgsError, parseReportArgs } from '../../../src/cli/report/args.ts';

test('reads the options a hook line carries, in either form, and keeps the payload argument', () => {
  const args = parseReportArgs(['--hook', 'codex', '--source=hook:x', '--strict', '--chain', '["notify-send","hi"]', '{"type":"agent-turn-complete"}']);
  assert.deepEqual(args, { hook: 'codex', source: 'hook:x', strict: true, chain: ['notify-send', 'hi'], positional: ['{"type":"agent-turn-complete"}'] });
});

test('refuses an unknown option, a missing value and a chain that is not an argv', () => {
  assert.throws(() => parseReportArgs(['--bogus', '3']), ArgsError);
  assert.throws(() => parseReportArgs(['--seq', '-1']), ArgsError);
  assert.throws(() => parseReportArgs(['--seq', '1e3']), ArgsError);
  assert.equal(parseReportArgs(['--seq', '1796088465171000']).seq, 1796088465171000);
  assert.throws(() => parseReportArgs(['--state']), ArgsError);
  assert.throws(() => parseReportArgs(['--chain', '"notify-send"']), ArgsError);
});
