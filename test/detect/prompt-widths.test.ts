import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPrompt } from '../../src/detect/prompt-read.ts';
import type { DetectInput } from '../../src/detect/types.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';
import { blockedMoments } from './prompt-cases.ts';

const manifests = new ManifestSet({ userDir: null, catalogDir: null });
/** The commands the mock model asks to run (agent-clis/mock-model.ts), and the corpus sessions' marker file. */
const COMMAND = /touch capture-proof\.txt|curl -s http:\/\/127\.0\.0\.1:9\/capture-check|touch \/home\/dev\/code\/agent\/work\/run-[a-z]+-\d+\/x\.txt/;

/** The command the screen shows, soft-wrapped rows joined. */
function commandOnScreen(input: DetectInput): string {
  let text = '';
  input.lines.forEach((line, row) => (text += (input.wrapped?.[row] ? '' : '\n') + line));
  const found = COMMAND.exec(text.replace(/\s+/g, ' '));
  assert.ok(found, 'the recording shows a command');
  return found[0];
}

/**
 * Every blocked moment of the recorded streams, at its recorded size (60 to 250 columns) and with the
 * 120-column recordings replayed in panes of 60 to 300: the whole command, or a prompt that says it is
 * not whole. A stream replayed at another width than its own is drawn for the wrong width (rows the
 * agent placed with the cursor land across wrapped rows), so there a dialog may be unreadable: then
 * its prompt must not say complete.
 */
describe('prompts of the recorded streams at 60 to 300 columns', () => {
  it('hold the whole command in every permission prompt at the size it was recorded at', async () => {
    const moments = (await blockedMoments()).filter((moment) => /permission/.test(moment.label.label));
    assert.ok(moments.length >= 40, `only ${moments.length} permission moments`);
    for (const moment of moments) {
      const prompt = readPrompt(manifests.get(moment.label.agent)!, moment.input);
      assert.ok(prompt.text.includes(commandOnScreen(moment.input)), `${moment.name}: ${JSON.stringify(prompt.text)}`);
    }
  });

  it('replayed in panes 60 to 300 wide: a prompt that says complete has its command and its choices, one that does not says why', async () => {
    for (const cols of [60, 70, 100, 200, 300]) {
      const moments = await blockedMoments(cols);
      assert.ok(moments.length >= 20, `only ${moments.length} moments at ${cols} columns`);
      for (const moment of moments) {
        const prompt = readPrompt(manifests.get(moment.label.agent)!, moment.input);
        const at = `${moment.name} at ${cols} columns`;
        if (!prompt.complete) {
          assert.ok(prompt.incomplete !== null && prompt.incomplete.length > 0, at);
          continue;
        }
        assert.equal(prompt.incomplete, null, at);
        assert.ok(prompt.source.startsWith('screen:'), at);
        assert.ok(prompt.choices.length > 0 || prompt.freeText, at);
        if (/permission/.test(moment.label.label)) assert.ok(prompt.text.includes(commandOnScreen(moment.input)), `${at}: ${JSON.stringify(prompt.text)}`);
      }
    }
  });

  it("reads Claude Code 2.1.197's trust dialog and Bash permission of the corpus session in a 60-column pane, as seen in part", async () => {
    const moments = (await blockedMoments(60)).filter((moment) => moment.name.startsWith('claude-code/'));
    const read = (label: string) => readPrompt(manifests.get('claude')!, moments.find((moment) => moment.label.label === label)!.input);
    const trust = read('01-blocked-trust-dialog');
    assert.deepEqual([trust.kind, trust.source, trust.complete], ['trust', 'screen:trust_folder_cut', false]);
    assert.equal(trust.text, '/home/dev/code/agent/work/run-claude-1795997631139/proj-claude');
    assert.deepEqual(trust.choices.map((choice) => [choice.id, choice.keys.join('+')]), [['yes-i-trust-this-folder', '1'], ['no-exit', '2'], ['cancel', 'Escape']]);
    assert.match(trust.incomplete!, /Accessing workspace:\) is not on the screen/);
    const bash = read('05-blocked-permission-bash');
    assert.deepEqual([bash.kind, bash.source, bash.complete], ['permission', 'screen:tool_permission_cut', false]);
    assert.equal(bash.text, 'touch /home/dev/code/agent/work/run-claude-1795997631139/x.txt\nCreate marker file\nDo you want to proceed?');
    assert.deepEqual(bash.choices.map((choice) => choice.id), ['yes', 'yes-and-always-allow-access-to-run', 'no', 'cancel', 'amend', 'explain']);
    assert.match(bash.incomplete!, /the tool's name\) is not drawn as expected/);
  });
});
