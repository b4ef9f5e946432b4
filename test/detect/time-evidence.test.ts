import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/detect/evaluate.ts';
import { explain } from '../../src/detect/explain.ts';
import type { ManifestError } from '../../src/detect/errors.ts';
import { ScreenMemory } from '../../src/detect/screen-memory.ts';
import type { DetectInput } from '../../src/detect/types.ts';
import { manifest } from './helpers.ts';

const RULES = `
[[rules]]
id = "spinner_row"
state = "working"
priority = 2
line_regex = ['^{spinner} Thinking']
motion_within_ms = 500
[[rules]]
id = "prompt"
state = "idle"
priority = 1
line_regex = ['^> $']
quiet_for_ms = 300
`;

const at = (text: string, ms: number): DetectInput => ({ lines: text.split('\n'), title: null, progress: null, at: ms });

describe('time as evidence', () => {
  it('counts a spinner row as work only while its frame keeps changing', () => {
    const m = manifest(RULES);
    const memory = new ScreenMemory();
    assert.equal(evaluate(m, at('⠋ Thinking (1s)\n> ', 0), memory).rule?.id, 'spinner_row');
    assert.equal(evaluate(m, at('⠙ Thinking (1s)\n> ', 400), memory).rule?.id, 'spinner_row');
    const moving = evaluate(m, at('⠙ Thinking (1s)\n> ', 800), memory);
    assert.equal(moving.rule?.id, 'spinner_row');
    assert.equal(moving.recheckAt, 901, 'evaluate again when the motion window runs out');
    const frozen = evaluate(m, at('⠙ Thinking (1s)\n> ', 901), memory);
    assert.equal(frozen.rule?.id, 'prompt', 'a frozen status row is no evidence of work; the quiet prompt is');
    assert.equal(evaluate(m, at('⠹ Thinking (1s)\n> ', 950), memory).rule?.id, 'spinner_row', 'a new frame is motion again');
  });

  it('says idle only once the screen has been quiet for the window, and when to look again', () => {
    const m = manifest(RULES);
    const memory = new ScreenMemory();
    const early = evaluate(m, at('answer\n> ', 1000), memory);
    assert.equal(early.state, 'unknown');
    assert.equal(early.recheckAt, 1300);
    assert.equal(evaluate(m, at('answer\n> ', 1299), memory).state, 'unknown');
    assert.equal(evaluate(m, at('answer\n> ', 1300), memory).rule?.id, 'prompt');
    assert.equal(evaluate(m, at('answer!\n> ', 1400), memory).state, 'unknown', 'any change restarts the window');
  });

  it('is not judged without a clock (saved screens), and explain says which way it went', () => {
    const m = manifest(RULES);
    assert.equal(evaluate(m, { lines: ['⠙ Thinking'], title: null, progress: null }).rule?.id, 'spinner_row');
    assert.match(explain(m, { lines: ['> '], title: null, progress: null }).evaluatedRules[1]!.evidence.time ?? '', /not judged/);
    const memory = new ScreenMemory();
    evaluate(m, at('⠙ Thinking (1s)\n> ', 0), memory);
    const later = explain(m, at('⠙ Thinking (1s)\n> ', 2000), memory);
    assert.equal(later.evaluatedRules[0]!.matched, false);
    assert.match(later.evaluatedRules[0]!.evidence.time ?? '', /changed 2000 ms ago \(needs within 500\)/);
    assert.equal(later.state, 'idle');
    assert.equal(evaluate(m, at('⠙ Thinking (1s)\n> ', 2000), memory).state, 'idle', 'explain left the memory as it was');
  });

  it('validates window lengths against their named limits', () => {
    const fails = (body: string, code: string, message: RegExp) =>
      assert.throws(() => manifest(body), (error: ManifestError) => error.code === code && message.test(error.message), body);
    fails(RULES.replace('= 500', '= 10'), 'manifest_limit_exceeded', /motion_within_ms = 10 is outside the limits 50\.\.60000 ms/);
    fails(RULES.replace('= 300', '= 600000'), 'manifest_limit_exceeded', /quiet_for_ms = 600000/);
    fails(RULES.replace('= 300', '= 1.5'), 'manifest_invalid_value', /must be an integer number of milliseconds/);
  });
  it('holds a motion_only rule on motion seen on a clock, never on a saved screen', () => {
    const m = manifest(`
[[rules]]
id = "transcript_moving"
state = "working"
priority = 2
line_regex = ['^Line']
motion_within_ms = 1000
motion_only = true
[[rules]]
id = "prompt"
state = "idle"
priority = 1
line_regex = ['^> $']
`);
    assert.equal(evaluate(m, { lines: ['Line 1', '> '], title: null, progress: null }).rule?.id, 'prompt', 'a saved screen shows no motion');
    const memory = new ScreenMemory();
    assert.equal(evaluate(m, at('Line 1\n> ', 0), memory).rule?.id, 'prompt', 'a screen drawn at once is no motion');
    assert.equal(evaluate(m, at('Line 1\n> ', 40), memory).rule?.id, 'prompt', 'nor is the same screen looked at again soon after');
    assert.equal(evaluate(m, at('Line 1\nLine 2\n> ', 70), memory).rule?.id, 'transcript_moving', 'a new newest line is motion');
    assert.equal(evaluate(m, at('Line 1\nLine 2\n> ', 1071), memory).rule?.id, 'prompt', 'a still transcript is not');
  });

  it('refuses motion_only without a motion window', () => {
    assert.throws(() => manifest(`
[[rules]]
id = "bad"
state = "working"
line_regex = ['x']
motion_only = true
`), (error: ManifestError) => error.code === 'manifest_invalid_value' && /motion_only needs motion_within_ms/.test(error.message));
  });
});
