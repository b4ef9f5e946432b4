import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeChoices, type AgentPrompt, type PromptChoice } from '../../src/protocol/prompt.ts';

const yes: PromptChoice = { id: 'yes', label: 'Yes', keys: ['1'], default: true, role: 'allow-once' };
const always: PromptChoice = { id: 'yes-and-always', label: 'Yes, and always', keys: ['2'], default: false, role: 'allow-always' };
const no: PromptChoice = { id: 'no', label: 'No', keys: ['3'], default: false, role: 'deny' };

function prompt(choices: PromptChoice[], extra: Partial<AgentPrompt> = {}): AgentPrompt {
  return { id: 'p1-00000000', kind: 'permission', text: 'Bash command\nls\nDo you want to proceed?', choices, freeText: false, note: null, source: 'screen:tool_permission', complete: true, incomplete: null, ...extra };
}

describe('the choices a person may take without seeing the screen', () => {
  it('are the allow-once choice and the deny choice of a whole permission dialog, in that order', () => {
    assert.deepEqual(safeChoices(prompt([no, always, yes])), [yes, no]);
  });

  it('never include a choice that allows more than this once', () => {
    assert.deepEqual(safeChoices(prompt([always, no])), [no]);
  });

  it('are none for a dialog not read whole, another kind of prompt, or a free-text question', () => {
    assert.deepEqual(safeChoices(prompt([yes, no], { complete: false, incomplete: 'its footer is not drawn' })), []);
    assert.deepEqual(safeChoices(prompt([yes, no], { kind: 'trust' })), []);
    assert.deepEqual(safeChoices(prompt([yes, no], { kind: 'question' })), []);
    assert.deepEqual(safeChoices(prompt([yes, no], { freeText: true })), []);
  });

  it('leave out a role two choices share, and a choice with no keys known', () => {
    assert.deepEqual(safeChoices(prompt([yes, { ...yes, id: 'yes-2' }, no])), [no]);
    assert.deepEqual(safeChoices(prompt([{ ...yes, keys: [] }, no])), [no]);
  });
});
