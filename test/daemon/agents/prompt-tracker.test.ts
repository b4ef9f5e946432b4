import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PromptTracker } from '../../../src/daemon/agents/prompt-tracker.ts';
import type { ReadPrompt } from '../../../src/detect/prompt-read.ts';

const yes = { id: 'yes', label: 'Yes', keys: ['1'], default: true, role: 'allow-once' as const };
const no = { id: 'no-and-tell-claude-what-to-do', label: 'No, and tell Claude what to do differently', keys: ['2'], default: false, role: 'deny' as const };
const amend = { id: 'amend', label: 'amend', keys: ['Tab'], default: false, role: 'other' as const };

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

describe('what a report and an answer do to the prompt instance', () => {
  const trust: ReadPrompt = { kind: 'trust', text: 'Accessing workspace:\n/tmp/project', choices: [yes], freeText: false, note: null, source: 'screen:trust_folder', complete: true, incomplete: null };
  const fromHook = (text: string): ReadPrompt => ({ kind: 'permission', text, choices: [], freeText: false, note: 'no reader', source: 'report:hook:claude', complete: false, incomplete: 'no prompt reader read this dialog from the screen' });

  it('keeps the id of a dialog wrapped at another width', () => {
    const tracker = new PromptTracker();
    tracker.update(trust);
    const id = tracker.current!.id;
    assert.equal(tracker.update({ ...trust, text: 'Accessing\nworkspace:\n/tmp/pro\nject' }), 'drawn');
    assert.equal(tracker.current!.id, id);
  });

  it('keeps the id of a prompt only reports told of, and of the dialog a reader then reads', () => {
    const tracker = new PromptTracker();
    tracker.update(fromHook(''));
    const id = tracker.current!.id;
    assert.equal(tracker.update(fromHook('Bash: rm -rf build')), 'drawn', "the hook's text arrived");
    assert.equal(tracker.update(trust), 'drawn', 'the dialog drawn');
    assert.equal(tracker.current!.id, id);
    assert.equal(tracker.update(trust, { ...trust, text: 'shown otherwise' }), 'drawn', 'what is shown may change');
    assert.equal(tracker.current!.id, id);
  });

  it('has no prompt once an answered dialog left a screen no reader knows, whatever a report says next', () => {
    const tracker = new PromptTracker();
    tracker.update(trust);
    const id = tracker.current!.id;
    assert.equal(tracker.shows(id, trust), true);
    tracker.answered(id);
    assert.equal(tracker.update(trust), 'same', 'still on the screen');
    const bare = fromHook('');
    assert.equal(tracker.shows(id, bare), false);
    assert.equal(tracker.update(bare, fromHook('Bash: ls')), 'gone');
    assert.equal(tracker.current, null);
    assert.equal(tracker.update(bare, fromHook('Bash: ls -la')), 'same', 'a report after the answer is no prompt');
    assert.equal(tracker.current, null);
    assert.equal(tracker.update({ ...trust, text: 'Accessing workspace:\n/tmp/other' }), 'new', 'another dialog a reader knows is a new prompt');
    assert.notEqual(tracker.current!.id, id);
  });

  it('gives the answered dialog its id again when it is drawn again after a frame without it', () => {
    const tracker = new PromptTracker();
    tracker.update(trust);
    const id = tracker.current!.id;
    tracker.answered(id);
    assert.equal(tracker.update(fromHook('')), 'gone');
    assert.equal(tracker.update(trust), 'drawn');
    assert.equal(tracker.current!.id, id);
  });
});

describe('a dialog redrawn otherwise', () => {
  const gemini = (text: string): ReadPrompt => ({ kind: 'permission', text, choices: [yes, no], freeText: false, note: null, source: 'screen:shell', complete: true, incomplete: null });

  it('keeps the id when a mark is drawn beside the label of the choice taken', () => {
    const tracker = new PromptTracker();
    tracker.update(read([yes, no]));
    const id = tracker.current!.id;
    assert.equal(tracker.update(read([{ ...yes, label: 'Yes ✔' }, no])), 'drawn', 'shown with its mark');
    assert.equal(tracker.current!.id, id);
  });

  it('keeps the id of a question drawn with a line missing, until an answer was typed', () => {
    const tracker = new PromptTracker();
    tracker.update(gemini('? Shell touch proof.txt\nAllow execution?'));
    const id = tracker.current!.id;
    assert.equal(tracker.update(gemini('? Shell touch proof.txt\ntouch proof.txt\nAllow execution?')), 'drawn');
    assert.equal(tracker.current!.id, id);
    tracker.answered(id);
    assert.equal(tracker.update(gemini('? Shell touch proof.txt\ntouch proof.txt\nrm proof.txt\nAllow execution?')), 'new');
  });

  it('gives a moved cursor a new id, of the same dialog: an answer to the old id still sees its dialog', () => {
    const tracker = new PromptTracker();
    tracker.update(read([yes, no]));
    const id = tracker.current!.id;
    const moved = read([{ ...yes, default: false }, { ...no, default: true }]);
    assert.equal(tracker.update(moved), 'new');
    assert.notEqual(tracker.current!.id, id);
    assert.equal(tracker.shows(id, moved), true);
    assert.equal(tracker.shows(id, read([amend])), false);
  });

  it("keeps the id while an answer's own keys move the cursor, and gives the new one if the cursor stays moved after it", () => {
    const tracker = new PromptTracker();
    tracker.update(read([yes, no]));
    const id = tracker.current!.id;
    tracker.answered(id);
    const moved = read([{ ...yes, default: false }, { ...no, default: true }]);
    assert.equal(tracker.update(moved), 'drawn', 'Down drawn before Enter');
    assert.equal(tracker.current!.id, id);
    assert.equal(tracker.answerEnded(id), 'new', 'the answer was Down alone');
    assert.notEqual(tracker.current!.id, id);
    assert.equal(tracker.shows(id, moved), true);
  });
});
