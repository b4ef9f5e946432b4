import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRegion, type RegionSpec } from '../../src/detect/region-spec.ts';
import { RegionReader } from '../../src/detect/regions.ts';
import { isHorizontalRule } from '../../src/detect/screen-structure.ts';
import { RULE, screen } from './helpers.ts';

const CONVERSATION = ['Do you want to proceed?', '❯ 1. Yes', '', RULE, '❯ ', RULE, '  ? for shortcuts', '', ''].join('\n');

function cut(name: string, text = CONVERSATION, title: string | null = null): string[] {
  return [...new RegionReader(screen(text, title)).get(parseRegion(name) as RegionSpec).lines];
}

describe('regions', () => {
  it('drop trailing blank lines before cutting, and blank edges of every region', () => {
    assert.deepEqual(cut('bottom_lines(2)'), [RULE, '  ? for shortcuts']);
    assert.deepEqual(cut('whole_recent').length, 7);
  });

  it('count only non-blank lines in bottom_non_empty_lines and top_non_empty_lines', () => {
    assert.deepEqual(cut('bottom_non_empty_lines(4)'), ['❯ 1. Yes', RULE, '❯ ', RULE, '  ? for shortcuts'].slice(1));
    assert.deepEqual(cut('top_non_empty_lines(2)'), ['Do you want to proceed?', '❯ 1. Yes']);
  });

  it('separate the prompt box from the conversation above it', () => {
    assert.deepEqual(cut('prompt_box_body'), ['❯']);
    assert.deepEqual(cut('above_prompt_box'), ['Do you want to proceed?', '❯ 1. Yes']);
    assert.deepEqual(cut('after_last_horizontal_rule'), ['  ? for shortcuts']);
  });

  it('read the whole screen when there is no rule, and an empty box body', () => {
    assert.deepEqual(cut('after_last_horizontal_rule', 'a\nb'), ['a', 'b']);
    assert.deepEqual(cut('prompt_box_body', 'a\nb'), []);
    assert.deepEqual(cut('above_prompt_box', 'a\nb'), ['a', 'b']);
  });

  it('strip side borders inside a ╭ … ╰ box', () => {
    const boxed = ['╭' + '─'.repeat(10) + '╮', '│ > hello │', '╰' + '─'.repeat(10) + '╯'].join('\n');
    assert.deepEqual(cut('prompt_box_body', boxed), ['> hello']);
  });

  it('start after_last_prompt_marker at the last line opening with a prompt glyph', () => {
    assert.deepEqual(cut('after_last_prompt_marker'), ['❯ ', RULE, '  ? for shortcuts']);
  });

  it('read only what the program set for osc_title and osc_progress', () => {
    assert.deepEqual(cut('osc_title', 'x', null), []);
    assert.deepEqual(cut('osc_title', 'x', '✳ Claude Code'), ['✳ Claude Code']);
    const reader = new RegionReader({ lines: [], title: null, progress: { state: 1, percent: 40 } });
    assert.deepEqual(reader.get(parseRegion('osc_progress') as RegionSpec).lines, ['1;40']);
  });

  it('read non-breaking spaces as spaces', () => {
    assert.deepEqual(cut('prompt_box_body', `${RULE}\n❯\u00a0hi\n${RULE}`), ['❯ hi']);
  });

  it('tell a labelled rule from prose with a few dashes', () => {
    assert.equal(isHorizontalRule('─'.repeat(44) + ' ◐ medium · /effort'), true);
    assert.equal(isHorizontalRule('─'.repeat(32) + ' 100% ─'), true);
    assert.equal(isHorizontalRule('some text ──── more text here'), false);
    assert.equal(isHorizontalRule('───────'), false);
  });
});

describe('horizontal rules', () => {
  it('cut the prompt box and what follows by the last two rules, whatever rules the transcript above holds', () => {
    const text = [RULE, 'old box', RULE, 'transcript', RULE, '❯ draft', RULE, '  footer'].join('\n');
    assert.deepEqual(cut('prompt_box_body', text), ['❯ draft']);
    assert.deepEqual(cut('above_prompt_box', text), [RULE, 'old box', RULE, 'transcript']);
    assert.deepEqual(cut('after_last_horizontal_rule', text), ['  footer']);
    assert.deepEqual(cut('prompt_box_body', ['one', RULE, 'only one rule'].join('\n')), []);
  });
});
