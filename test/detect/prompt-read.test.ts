import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManifestError } from '../../src/detect/errors.ts';
import { footerHints } from '../../src/detect/prompt-footer.ts';
import { hintFromProgramStatus, hintFromReport } from '../../src/detect/prompt-hint.ts';
import { readPrompt } from '../../src/detect/prompt-read.ts';
import { safeChoices } from '../../src/protocol/prompt.ts';
import { manifest, RULE, screen } from './helpers.ts';

const RULES = `
[[rules]]
id = "form"
state = "blocked"
line_regex = ['^Do you want']
`;

function refused(body: string): ManifestError {
  try {
    manifest(RULES + body);
  } catch (error) {
    assert.ok(error instanceof ManifestError, String(error));
    return error;
  }
  assert.fail('the manifest loaded');
}

describe('[[prompts]] in a manifest', () => {
  it('refuses an unknown key, naming the allowed ones and the place', () => {
    const error = refused(`
[[prompts]]
id = "p"
kind = "permission"
start = '^Do you want'
choices = '(?P<label>.+)'
`);
    assert.equal(error.code, 'manifest_unknown_key');
    assert.match(error.message, /unknown key "choices" in prompt reader 1; allowed keys: id, kind, region, start, when, choice, footer/);
    assert.equal(error.position?.line, 13);
  });

  it('refuses a choice pattern without a label group or with a group it does not know', () => {
    const base = `\n[[prompts]]\nid = "p"\nkind = "permission"\nstart = '^Do you want'\n`;
    assert.match(refused(`${base}choice = '^(\\d+)\\. (.+)$'\n`).message, /needs a \(\?P<label>\.\.\.\) group/);
    assert.match(refused(`${base}choice = '^(?P<digit>\\d+)\\. (?P<label>.+)$'\n`).message, /unknown group \(\?P<digit>; allowed: label, number, key, cursor/);
    assert.equal(refused(`${base}choice = '^(?P<label>(a+)+$'\n`).code, 'manifest_bad_regex');
  });

  it('refuses choice roles on a reader that reads no choices, and a role pattern that does not compile', () => {
    const base = `\n[[prompts]]\nid = "p"\nkind = "permission"\nstart = '^Do you want'\n`;
    assert.match(refused(`${base}note = 'n'\nallow_once = '^Yes$'\n`).message, /gives choice roles but reads no choices/);
    assert.equal(refused(`${base}choice = '(?P<label>Yes|No)'\ndeny = '^(No$'\n`).code, 'manifest_bad_regex');
  });

  it('refuses a reader that applies everywhere, a kind it does not know, and one with no choices that says not why', () => {
    assert.match(refused(`\n[[prompts]]\nid = "p"\nkind = "permission"\nchoice = '(?P<label>Yes)'\n`).message, /needs start or when/);
    assert.match(refused(`\n[[prompts]]\nid = "p"\nkind = "danger"\nstart = 'x'\nnote = 'n'\n`).message, /kind must be one of permission, question, plan, trust, auth, other/);
    assert.match(refused(`\n[[prompts]]\nid = "p"\nkind = "other"\nstart = 'x'\n`).message, /give it a note that says why it has none/);
    assert.equal(refused(`\n[[prompts]]\nid = "p"\nkind = "other"\nstart = 'x'\nnote = 'n'\ntext_lines = 9\n`).code, 'manifest_limit_exceeded');
  });
});

describe('reading a prompt from a screen', () => {
  const numbered = manifest(`${RULES}
[[prompts]]
id = "permission"
kind = "permission"
start = '^Bash command$'
choice = '^\\s*(?P<cursor>❯)?\\s*(?P<number>\\d+)\\.\\s+(?P<label>.+?)(?:\\s+\\((?P<key>[a-z]|esc)\\))?$'
footer = '(?i)^Esc to cancel'
text_lines = 4
allow_once = '^Yes, proceed$'
allow_always = '^Yes, and\\b'
deny = '^No$'

[[prompts]]
id = "auto_mode"
kind = "permission"
start = '(?i)^Auto mode can.t check actions'
footer = '(?i)^Enter to stay'
text_lines = 1

[[prompts]]
id = "free"
kind = "question"
start = '^Agent needs information\\.$'
free_text = true
text_skip = ['^Agent needs information\\.$']
`);

  it('reads a numbered menu with its cursor, lettered hints and the footer keys', () => {
    const prompt = readPrompt(
      numbered,
      screen([RULE, 'Bash command', '  rm -rf build/', 'Do you want to proceed?', '❯ 1. Yes, proceed (y)', '  2. Yes, and always', '  3. No (esc)', '', 'Esc to cancel · Tab to amend'].join('\n')),
    );
    assert.equal(prompt.kind, 'permission');
    assert.equal(prompt.text, 'Bash command\nrm -rf build/\nDo you want to proceed?');
    assert.deepEqual(prompt.choices, [
      { id: 'yes-proceed', label: 'Yes, proceed', keys: ['y'], default: true, role: 'allow-once' },
      { id: 'yes-and-always', label: 'Yes, and always', keys: ['2'], default: false, role: 'allow-always' },
      { id: 'no', label: 'No', keys: ['Escape'], default: false, role: 'deny' },
      { id: 'amend', label: 'amend', keys: ['Tab'], default: false, role: 'other' },
    ]);
    assert.deepEqual(safeChoices({ ...prompt, id: 'p1' }).map((choice) => choice.id), ['yes-proceed', 'no'], 'once and no; never always');
    assert.equal(prompt.source, 'screen:permission');
    assert.equal(prompt.note, null);
  });

  it("reads a footer of key hints as the choices (Claude Code 2.1.332's auto mode dialog)", () => {
    const prompt = readPrompt(
      numbered,
      screen([RULE, "Auto mode can't check actions in this session", '', 'Enter to stay in auto mode · shift+Tab to leave for accept edits mode and stop · Esc to cancel'].join('\n')),
    );
    assert.deepEqual(prompt.choices, [
      { id: 'stay-in-auto-mode', label: 'stay in auto mode', keys: ['Enter'], default: true, role: 'other' },
      { id: 'leave-for-accept-edits-mode-and-stop', label: 'leave for accept edits mode and stop', keys: ['BTab'], default: false, role: 'other' },
      { id: 'cancel', label: 'cancel', keys: ['Escape'], default: false, role: 'other' },
    ]);
    assert.deepEqual(safeChoices({ ...prompt, id: 'p1' }), [], 'a dialog whose choices have no known role offers none to take blind');
  });

  it('says why a free-text question has no choices, and why a screen no reader knows has none', () => {
    const free = readPrompt(numbered, screen(['Agent needs information.', 'Which colour?'].join('\n')));
    assert.deepEqual([free.kind, free.text, free.choices, free.freeText, free.note], ['question', 'Which colour?', [], true, 'a free-text question: answer with text']);
    const unknown = readPrompt(numbered, screen('Something else entirely'));
    assert.deepEqual([unknown.kind, unknown.choices, unknown.source], ['other', [], 'screen']);
    assert.match(unknown.note!, /no prompt reader of the manifest knows this dialog/);
  });

  it("takes the kind from the agent's own report only when the screen shows no dialog, and the text from it then", () => {
    const osc = hintFromProgramStatus({ kind: 'plan' });
    assert.deepEqual(osc, { kind: 'plan', source: 'report:osc7501' });
    assert.equal(hintFromProgramStatus({ kind: 'rm -rf' }), null, 'an unknown kind is no hint');
    assert.equal(readPrompt(numbered, screen("Auto mode can't check actions in this session"), osc).kind, 'permission', "the reader's kind stands");
    assert.equal(readPrompt(numbered, screen('a screen with no dialog'), osc).kind, 'plan');
    const hook = hintFromReport('hook:claude', 'permission: Bash: touch capture-proof.txt');
    assert.deepEqual(hook, { kind: 'permission', text: 'Bash: touch capture-proof.txt', source: 'report:hook:claude' });
    assert.equal(hintFromReport('hook:claude', 'tool: Bash'), null);
    assert.equal(hintFromReport('hook:x', 'permission: rm\x1b]0;owned\x07 -rf\r\nx')!.text, 'rm ]0;owned -rf x', 'no control character passes');
    const fromHook = readPrompt(numbered, screen('a screen with no dialog'), hook);
    assert.deepEqual([fromHook.kind, fromHook.text, fromHook.source], ['permission', 'Bash: touch capture-proof.txt', 'report:hook:claude']);
  });

  it('bounds what a hostile screen can make of a prompt: 16 choices, 1000 characters a line, and says so', () => {
    const lines = [RULE, 'Bash command', 'x'.repeat(5000), 'Do you want to proceed?', ...Array.from({ length: 40 }, (_, i) => `  ${i + 1}. Choice ${i + 1}`)];
    const prompt = readPrompt(numbered, screen(lines.join('\n')));
    assert.equal(prompt.choices.length, 16);
    assert.ok(prompt.text.split('\n').every((line) => line.length <= 1000));
    assert.equal(prompt.complete, false);
    assert.match(prompt.incomplete!, /longer than 1000 characters/);
    assert.match(prompt.incomplete!, /40 choices, of which the first 16 are listed/);
    assert.match(prompt.incomplete!, /footer is not drawn/);
    const wrapped = [RULE, 'Bash command', 'Do you want to proceed?', `  1. Yes ${'and more '.repeat(10)}`, ...Array.from({ length: 400 }, () => `     ${'y'.repeat(60)}`)];
    const long = readPrompt(numbered, { ...screen(wrapped.join('\n')), cols: 80 });
    assert.equal(long.choices[0]!.label.length, 1000, 'a label its rows make ever longer is cut');
    assert.match(long.incomplete!, /label is longer than 1000 characters/);
  });
});

describe('footer key hints', () => {
  it('reads the separators and key spellings agents draw, and leaves out hints that name no key', () => {
    assert.deepEqual(footerHints('↑/↓: Navigate | Enter: Select | Esc: Cancel'), [
      { key: 'Enter', label: 'Select' },
      { key: 'Escape', label: 'Cancel' },
    ]);
    assert.deepEqual(footerHints('enter accept · ctrl+d decline · esc cancel'), [
      { key: 'Enter', label: 'accept' },
      { key: 'C-d', label: 'decline' },
      { key: 'Escape', label: 'cancel' },
    ]);
    assert.deepEqual(footerHints('↑↓ select  enter submit  esc dismiss'), [
      { key: 'Enter', label: 'submit' },
      { key: 'Escape', label: 'dismiss' },
    ]);
    assert.deepEqual(footerHints('Press enter to confirm or esc to cancel'), []);
  });
});
