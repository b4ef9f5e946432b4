import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPrompt } from '../../src/detect/prompt-read.ts';
import type { DetectInput } from '../../src/detect/types.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';
import { wrapWords as wrap } from '../../harness/word-wrap.ts';

const manifests = new ManifestSet({ userDir: null, catalogDir: null });
const WIDTHS = [60, 70, 80, 100, 120, 160, 220, 300];

/** A screen of `cols` columns whose last rows are `rows`, as the daemon reads it. */
function pane(cols: number, rows: string[], height = 40): DetectInput {
  const lines = [...Array<string>(Math.max(0, height - rows.length - 1)).fill(''), ...rows, ''];
  return { lines, cols, title: null, progress: null };
}

/** Claude Code 2.1.332's permission dialog as drawn at `cols` columns: its tip and long labels wrap (test/fixtures/streams/claude/2.1.332/60x20). */
function claudePermission(cols: number, command: string[]): string[] {
  return [
    '─'.repeat(cols),
    ' Bash command',
    ...wrap('Tip: auto mode handles these prompts for you — choose "switch to auto mode" below', cols - 1, ' '),
    ' Run shell command',
    '╌'.repeat(cols),
    ...command.flatMap((line) => wrap(line, cols - 1, ' ')),
    '╌'.repeat(cols),
    ' Do you want to proceed?',
    ' ❯ 1. Yes',
    ...wrap('Yes, and always allow access to /tmp/corral-capture-claude-2mZnYY/project from this project', cols - 1, '   2. ', '      '),
    ...wrap('Yes, and switch to auto mode · auto mode handles these prompts for you', cols - 1, '   3. ', '      '),
    '   4. No',
    '',
    ' Esc to cancel · Tab to amend',
  ];
}

const LONG_COMMAND = 'rsync -av --delete --exclude node_modules --exclude .git ./build deploy@staging.example.com:~/releases/current --dry-run';
const CLAUDE_CHOICES = ['yes', 'yes-and-always-allow-access-to-tmp', 'yes-and-switch-to-auto-mode-auto-mode', 'no', 'cancel', 'amend'];

describe('a prompt read whole at every width', () => {
  it("Claude Code's permission at 70 columns holds its command, not the tip's wrapped half", () => {
    const prompt = readPrompt(manifests.get('claude')!, pane(70, claudePermission(70, ['touch capture-proof.txt'])));
    assert.equal(prompt.text, 'Bash command\nRun shell command\ntouch capture-proof.txt\nDo you want to proceed?');
    assert.deepEqual(prompt.choices.map((choice) => choice.id), CLAUDE_CHOICES);
    assert.equal(prompt.complete, true, prompt.incomplete ?? '');
  });

  it("Claude Code's permission keeps both lines of a two-line command and the whole of a long one, labels whole, at 60 to 300 columns", () => {
    for (const command of [['cd /srv/app &&', 'npm run build -- --production'], [LONG_COMMAND]]) {
      for (const cols of WIDTHS) {
        const prompt = readPrompt(manifests.get('claude')!, pane(cols, claudePermission(cols, command)));
        assert.equal(prompt.text, ['Bash command', 'Run shell command', ...command, 'Do you want to proceed?'].join('\n'), `${cols} columns`);
        assert.deepEqual(prompt.choices.map((choice) => choice.id), CLAUDE_CHOICES, `${cols} columns`);
        assert.equal(prompt.choices[1]!.label, 'Yes, and always allow access to /tmp/corral-capture-claude-2mZnYY/project from this project', `${cols} columns`);
        assert.equal(prompt.complete, true, `${cols} columns: ${prompt.incomplete}`);
      }
    }
  });

  it("Codex's approval keeps its reason and the whole command, and a label's key hint on its second row, at 60 to 300 columns", () => {
    const reason = 'Reason: Sync the build to the staging server so that the release can be checked before it goes out';
    for (const cols of WIDTHS) {
      const rows = [
        '  Would you like to run the following command?',
        '',
        '  Environment: local',
        '',
        ...wrap(reason, cols - 2, '  '),
        '',
        ...wrap(`$ ${LONG_COMMAND}`, cols - 2, '  '),
        '',
        '› 1. Yes, proceed (y)',
        ...wrap("Yes, and don't ask again for commands that start with `rsync -av --delete` (p)", cols - 2, '  2. ', '     '),
        '  3. No, and tell Codex what to do differently (esc)',
        '',
        '  Press enter to confirm or esc to cancel',
      ];
      const prompt = readPrompt(manifests.get('codex')!, pane(cols, rows));
      assert.equal(prompt.text, ['Would you like to run the following command?', reason, `$ ${LONG_COMMAND}`].join('\n'), `${cols} columns`);
      assert.deepEqual(prompt.choices.map((choice) => [choice.id, choice.keys.join('+')]), [
        ['yes-proceed', 'y'],
        ['yes-and-don-t-ask-again-for-commands', 'p'],
        ['no-and-tell-codex-what-to-do-differently', 'Escape'],
      ], `${cols} columns`);
      assert.equal(prompt.complete, true, `${cols} columns: ${prompt.incomplete}`);
    }
  });

  it("Claude Code's auto mode dialog keeps every choice of its footer when the footer wraps", () => {
    for (const cols of [60, 70, 120]) {
      const rows = [
        '─'.repeat(cols),
        "  Auto mode can't check actions in this session",
        '',
        ...wrap("Auto mode's safety check runs on the server. Your requests go through 127.0.0.1:39575, and the check isn't getting through.", cols - 2, '  '),
        '',
        ...wrap('You can stay in auto mode and approve each action that needs the check yourself.', cols - 2, '  '),
        '',
        ...wrap('Enter to stay in auto mode · shift+Tab to leave for accept edits mode and stop · Esc to cancel', cols - 2, '  '),
      ];
      const prompt = readPrompt(manifests.get('claude')!, pane(cols, rows));
      assert.deepEqual(prompt.choices.map((choice) => [choice.id, choice.keys.join('+')]), [
        ['stay-in-auto-mode', 'Enter'],
        ['leave-for-accept-edits-mode-and-stop', 'BTab'],
        ['cancel', 'Escape'],
      ], `${cols} columns`);
      assert.equal(prompt.text, "Auto mode can't check actions in this session\nAuto mode's safety check runs on the server. Your requests go through 127.0.0.1:39575, and the check isn't getting through.");
      assert.equal(prompt.complete, true, `${cols} columns: ${prompt.incomplete}`);
    }
  });
});

describe('a prompt that says it is not whole', () => {
  it('is incomplete while its footer is not drawn, and complete once it is', () => {
    const whole = claudePermission(80, ['touch capture-proof.txt']);
    const drawing = readPrompt(manifests.get('claude')!, pane(80, whole.slice(0, -3)));
    assert.equal(drawing.complete, false);
    assert.match(drawing.incomplete!, /its footer is not drawn/);
    assert.deepEqual(drawing.choices.map((choice) => choice.id), CLAUDE_CHOICES.slice(0, 3));
    const drawn = readPrompt(manifests.get('claude')!, pane(80, whole));
    assert.deepEqual([drawn.complete, drawn.incomplete], [true, null]);
  });

  it('is incomplete when its text has more lines than the reader reads, and says how many are left out', () => {
    const command = Array.from({ length: 9 }, (_, i) => `echo step-${i + 1}`);
    const prompt = readPrompt(manifests.get('claude')!, pane(120, claudePermission(120, command)));
    assert.equal(prompt.complete, false);
    assert.match(prompt.incomplete!, /4 of its 12 lines of text are left out \(text_lines = 8\)/);
  });

  it('is incomplete when no reader reads the screen, also when a report gave its text', () => {
    const prompt = readPrompt(manifests.get('claude')!, pane(80, ['some screen no reader knows']), { kind: 'permission', text: 'Bash: rm -rf build', source: 'report:hook:claude' });
    assert.deepEqual([prompt.kind, prompt.text, prompt.complete], ['permission', 'Bash: rm -rf build', false]);
    assert.match(prompt.incomplete!, /no prompt reader read this dialog from the screen; the text is what the agent reported/);
  });

  it('is incomplete when its last choice is on the bottom row and the reader knows no footer', () => {
    const rows = ['  Make auto mode your default permission mode?', '', '  ❯ Yes, set auto mode as my default permission mode', '    No, keep manual mode'];
    const bottom = readPrompt(manifests.get('claude')!, { lines: rows, cols: 80, title: null, progress: null });
    assert.equal(bottom.complete, false);
    assert.match(bottom.incomplete!, /last choice is on the bottom row/);
    assert.equal(readPrompt(manifests.get('claude')!, pane(80, rows)).complete, true);
  });
});
