import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PromptTracker } from '../../src/daemon/agents/prompt-tracker.ts';
import type { ReadPrompt } from '../../src/detect/prompt-read.ts';

const yes = { id: 'yes', label: 'Yes', keys: ['1'], default: true };
const no = { id: 'no-and-tell-claude-what-to-do', label: 'No, and tell Claude what to do differently', keys: ['2'], default: false };
const amend = { id: 'amend', label: 'amend', keys: ['Tab'], default: false };

function read(choices: ReadPrompt['choices'], text = 'Do you want to proceed?'): ReadPrompt {
  return { kind: 'permission', text, choices, freeText: false, note: null, source: 'screen:tool_permission', complete: true, incomplete: null };
}

describe('the prompt instance id', () => {
  it('keeps the id of a dialog drawn further or cut back, and shows what the screen shows now', () => {
    const tracker = new PromptTracker();
    assert.equal(tracker.update(read([])), 'new');
    const id = tracker.current!.id;
    assert.equal(tracker.update(read([yes, { ...no, id: 'no-and-tell', label: 'No, and tell' }])), 'drawn', 'its last choice cut mid-line');
    assert.equal(tracker.update(read([yes, no])), 'drawn');
    assert.equal(tracker.update(read([yes, no, amend])), 'drawn');
    assert.equal(tracker.update(read([yes, no, amend])), 'same');
    assert.equal(tracker.update(read([yes, no])), 'drawn', 'a redraw read before its last line');
    assert.equal(tracker.current!.id, id);
    assert.deepEqual(tracker.current!.choices, [yes, no]);
  });

  it('gives a new id to another question, a moved cursor, other choices, and a dialog shown anew', () => {
    const tracker = new PromptTracker();
    tracker.update(read([yes, no]));
    const ids = new Set([tracker.current!.id]);
    // Each against the one before it: the cursor moved, other choices, then another question.
    for (const next of [read([{ ...yes, default: false }, { ...no, default: true }]), read([amend, no]), read([amend, no], 'Do you want to edit?')]) {
      assert.equal(tracker.update(next), 'new');
      ids.add(tracker.current!.id);
    }
    tracker.clear();
    assert.equal(tracker.update(read([amend, no], 'Do you want to edit?')), 'new', 'blocked anew: a new instance, though it looks the same');
    ids.add(tracker.current!.id);
    assert.equal(ids.size, 5);
  });
});
