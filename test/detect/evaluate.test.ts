import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/detect/evaluate.ts';
import { explain } from '../../src/detect/explain.ts';
import { manifest, screen } from './helpers.ts';

describe('evaluation', () => {
  it('lets the highest priority win, whatever the file order', () => {
    const m = manifest(`
[[rules]]
id = "low"
state = "idle"
priority = 1
contains = ["prompt"]
[[rules]]
id = "high"
state = "blocked"
priority = 9
contains = ["esc to cancel"]
`);
    assert.equal(evaluate(m, screen('PROMPT\nEsc to cancel')).rule?.id, 'high');
    assert.equal(evaluate(m, screen('prompt')).rule?.id, 'low');
  });

  it('gives a tie to the earlier rule in the file', () => {
    const m = manifest('[[rules]]\nid = "first"\nstate = "idle"\ncontains = ["x"]\n[[rules]]\nid = "second"\nstate = "working"\ncontains = ["x"]\n');
    assert.equal(evaluate(m, screen('x')).rule?.id, 'first');
  });

  it('applies all, any and not gates, each with its own region when given', () => {
    const m = manifest(`
[[rules]]
id = "form"
state = "blocked"
region = "bottom_lines(1)"
line_regex = ['^Enter to select']
all = [{ region = "whole_recent", regex = ['(?i)^which'] }]
any = [{ contains = ["esc"] }, { contains = ["cancel"] }]
not = [{ region = "whole_recent", contains = ["read-only"] }]
`);
    assert.equal(evaluate(m, screen('Which one?\nEnter to select · Esc')).state, 'blocked');
    assert.equal(evaluate(m, screen('Which one?\nEnter to select')).state, 'unknown', 'no any gate passes');
    assert.equal(evaluate(m, screen('Which one? (read-only)\nEnter to select · Esc')).state, 'unknown', 'the not gate vetoes');
    assert.equal(evaluate(m, screen('Pick one\nEnter to select · Esc')).state, 'unknown', 'the all gate fails');
  });

  it('matches contains case-insensitively and line_regex within one line', () => {
    const m = manifest(`[[rules]]\nid = "r"\nstate = "working"\ncontains = ["ESC TO INTERRUPT"]\nline_regex = ['a.*b']\n`);
    assert.equal(evaluate(m, screen('esc to interrupt\na b')).state, 'working');
    assert.equal(evaluate(m, screen('esc to interrupt\na\nb')).state, 'unknown');
  });

  it('carries visible flags and skip_state_update from the winning rule', () => {
    const m = manifest(`
[[rules]]
id = "viewer"
state = "unknown"
skip_state_update = true
priority = 5
contains = ["transcript"]
[[rules]]
id = "spinner"
state = "working"
visible_working = true
contains = ["…"]
`);
    const viewer = evaluate(m, screen('Thinking…\ntranscript'));
    assert.equal(viewer.skipStateUpdate, true);
    assert.deepEqual(viewer.visible, { idle: false, blocker: false, working: false });
    assert.deepEqual(evaluate(m, screen('Thinking…')).visible, { idle: false, blocker: false, working: true });
  });

  it('says when the fallback decided, in the verdict and in explain', () => {
    const m = manifest('[[rules]]\nid = "r"\nstate = "idle"\ncontains = ["ready"]\n');
    const verdict = evaluate(m, screen('nothing here'));
    assert.equal(verdict.state, 'unknown');
    assert.equal(verdict.rule, null);
    assert.match(verdict.fallbackReason ?? '', /no rule matched \(1 evaluated\); manifest fallback is unknown/);
    const idleFallback = manifest('[[rules]]\nid = "r"\nstate = "working"\ncontains = ["busy"]\n', 'id = "demo"\nversion = "1.0.0"\nfallback = "idle"\n');
    assert.equal(evaluate(idleFallback, screen('')).state, 'idle');
  });

  it('explains every rule with its evidence and the manifest that decided', () => {
    const m = manifest(`
[[rules]]
id = "blocked_footer"
state = "blocked"
priority = 9
region = "bottom_lines(1)"
line_regex = ['^Esc to cancel']
[[rules]]
id = "prompt"
state = "idle"
contains = ["❯"]
`);
    const result = explain(m, screen('❯ 1. Yes\nEsc to cancel'));
    assert.deepEqual(Object.keys(result), ['agent', 'state', 'rule', 'fallbackReason', 'visible', 'skipStateUpdate', 'evaluatedRules', 'manifest']);
    assert.deepEqual(result.rule, { id: 'blocked_footer', priority: 9, region: 'bottom_lines(1)' });
    assert.deepEqual(result.manifest, { id: 'demo', version: '1.0.0', source: 'test' });
    assert.deepEqual(result.evaluatedRules.map((rule) => [rule.id, rule.matched]), [['blocked_footer', true], ['prompt', true]]);
    const evidence = result.evaluatedRules[0]!.evidence;
    assert.equal(evidence.regionSize, 1);
    assert.match(evidence.matcher ?? '', /line_regex .* hit line 1 of bottom_lines\(1\): "Esc to cancel"/);
    assert.equal(evidence.preview, 'Esc to cancel');
  });
});
