import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/detect/evaluate.ts';
import { explain } from '../../src/detect/explain.ts';
import type { ManifestError } from '../../src/detect/errors.ts';
import { Screen } from '../../src/terminal/screen.ts';
import { manifest, screen } from './helpers.ts';

async function emulated(cols: number, text: string): Promise<{ lines: string[]; wrapped: boolean[]; title: null; progress: null }> {
  const term = new Screen({ cols, rows: 8 });
  await term.writeAsync(text);
  const snapshot = term.snapshot();
  term.dispose();
  return { lines: snapshot.lines, wrapped: snapshot.wrapped, title: null, progress: null };
}

const DIALOG = `
[[rules]]
id = "proceed_question"
state = "blocked"
lines = "logical"
region = "bottom_non_empty_lines(4)"
line_regex = ['^Do you want to proceed with the edit of the file\\?$']
`;

describe('logical lines', () => {
  it('match a sentence the emulator wrapped over three rows, and explain shows the joined line', async () => {
    const input = await emulated(20, 'Do you want to proceed with the edit of the file?\r\n> ');
    assert.deepEqual(input.wrapped.slice(0, 4), [false, true, true, false]);
    const m = manifest(DIALOG);
    assert.equal(evaluate(m, input).rule?.id, 'proceed_question');
    const rule = explain(m, input).evaluatedRules[0]!;
    assert.match(rule.evidence.matcher ?? '', /hit logical line 1 of bottom_non_empty_lines\(4\): "Do you want to proceed with the edit of the file\?"/);
  });

  it('keep rows apart when the program broke the line itself, and for rules that read rows', async () => {
    const hard = await emulated(20, 'Do you want to\r\nproceed with the edit of the file?\r\n');
    assert.equal(evaluate(manifest(DIALOG), hard).state, 'unknown');
    const soft = await emulated(20, 'Do you want to proceed with the edit of the file?\r\n');
    assert.equal(evaluate(manifest(DIALOG.replace('lines = "logical"\n', '')), soft).state, 'unknown');
  });

  it('keep region row counts: a region of the last 2 rows holds only the tail of a wrapped line', async () => {
    const input = await emulated(20, 'Do you want to proceed with the edit of the file?');
    assert.equal(evaluate(manifest(DIALOG.replace('bottom_non_empty_lines(4)', 'bottom_lines(2)')), input).state, 'unknown');
  });
});

describe('truncation', () => {
  const FOOTER = `
[[rules]]
id = "idle_footer"
state = "idle"
region = "bottom_lines(1)"
contains = ["/ commands · ? help"]
truncation_min_prefix = 6
`;

  it('accepts a line cut with an ellipsis after the minimum prefix, and says so', () => {
    const m = manifest(FOOTER);
    assert.equal(evaluate(m, screen('Interactive · Manual Approval · / comm…')).rule?.id, 'idle_footer');
    assert.equal(evaluate(m, screen('Interactive · Manual Approval · / commands · ? help')).rule?.id, 'idle_footer');
    assert.match(explain(m, screen('Interactive · / comm…')).evaluatedRules[0]!.evidence.matcher ?? '', /cut short on line 1/);
  });

  it('refuses a cut shorter than the minimum, one without the ellipsis, and rules that did not opt in', () => {
    const m = manifest(FOOTER);
    assert.equal(evaluate(m, screen('Interactive · / co…')).state, 'unknown');
    assert.equal(evaluate(m, screen('Interactive · / comm')).state, 'unknown');
    assert.equal(evaluate(m, screen('Interactive · / comm… more')).state, 'unknown');
    assert.equal(evaluate(manifest(FOOTER.replace('truncation_min_prefix = 6\n', '')), screen('Interactive · / comm…')).state, 'unknown');
  });

  it('is validated: within its limits, and only where there is a contains entry', () => {
    const fails = (body: string, code: string, message: RegExp) =>
      assert.throws(() => manifest(body), (error: ManifestError) => error.code === code && message.test(error.message) && error.position !== null, body);
    fails(FOOTER.replace('= 6', '= 1'), 'manifest_limit_exceeded', /outside the limits 3\.\.200/);
    fails(FOOTER.replace('= 6', '= "6"'), 'manifest_invalid_value', /must be an integer/);
    fails('[[rules]]\nid = "r"\nstate = "idle"\nregex = ["x"]\ntruncation_min_prefix = 5\n', 'manifest_invalid_value', /has none/);
    fails('[[rules]]\nid = "r"\nstate = "idle"\nregex = ["x"]\nlines = "wrapped"\n', 'manifest_invalid_value', /lines must be "rows" or "logical"/);
  });
});

describe('structure around a status line (stale text is not live)', () => {
  const CODEX = `
[[rules]]
id = "live_status"
state = "working"
line_regex = ['^{bullet} Working \\(\\d+s • esc to interrupt\\)']
# Live only when nothing but the composer and its footer lies below the status line.
all = [{ region = "below_match", regex = ['^(?:›(?: [^\\n]*)?)?(?:\\n(?:  [^\\n]*)?)*$'] }]
`;

  it('reads the status line as work only when the composer alone lies below it', () => {
    const m = manifest(CODEX);
    assert.equal(evaluate(m, screen('• Working (2s • esc to interrupt)\n\n› \n\n  model · folder')).rule?.id, 'live_status');
    assert.equal(evaluate(m, screen('◦ Working (3s • esc to interrupt)\n\n› ')).rule?.id, 'live_status');
    const stale = '• Working (2s • esc to interrupt)\n\n› Run /review\n\n■ Conversation interrupted - tell the model what to do differently.\n\n› \n\n  model · folder';
    assert.equal(evaluate(m, screen(stale)).state, 'unknown');
  });

  it('anchors on the newest status line, and refuses relative regions outside gates or without a line_regex', () => {
    const m = manifest(CODEX);
    assert.equal(evaluate(m, screen('• Working (1s • esc to interrupt)\n■ Conversation interrupted\n• Working (2s • esc to interrupt)\n› ')).rule?.id, 'live_status');
    assert.throws(() => manifest('[[rules]]\nid = "r"\nstate = "idle"\nregion = "below_match"\ncontains = ["x"]\n'), /can only be a gate's region/);
    assert.throws(() => manifest('[[rules]]\nid = "r"\nstate = "idle"\ncontains = ["x"]\nnot = [{ region = "below_match", contains = ["y"] }]\n'), /needs a line_regex of its own/);
  });
});
