import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readPrompt } from '../../src/detect/prompt-read.ts';
import { safeChoices } from '../../src/protocol/prompt.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';
import { blockedMoments, PROMPTS } from './prompt-cases.ts';

const manifests = new ManifestSet({ userDir: null, catalogDir: null });

/**
 * Every blocked moment of the recorded streams (the shared corpus's sessions included) reads as the
 * prompt a person sees there: kind, text and choices, each written down in its own file under
 * test/fixtures/prompts/ after reading the screen (screens.md beside each recording).
 */
describe('prompts of the recorded blocked moments', () => {
  it('equal the labelled expectation of each moment', async () => {
    const moments = await blockedMoments();
    assert.ok(moments.length >= 170, `only ${moments.length} blocked moments found`);
    for (const moment of moments) {
      const file = `${PROMPTS}${moment.name}`;
      assert.ok(existsSync(file), `no expectation file ${moment.name}`);
      const expected = JSON.parse(readFileSync(file, 'utf8')) as { prompt: unknown };
      const read = readPrompt(manifests.get(moment.label.agent)!, moment.input);
      assert.deepEqual(read, expected.prompt, moment.name);
    }
  });

  it('offer one allow-once and one deny choice to take blind on every whole permission dialog of a tool, and never one that allows more', async () => {
    const offered = new Map<string, number>();
    for (const moment of await blockedMoments()) {
      const read = readPrompt(manifests.get(moment.label.agent)!, moment.input);
      const safe = safeChoices({ ...read, id: 'p1' });
      assert.ok(safe.every((choice) => choice.role === 'allow-once' || choice.role === 'deny'), moment.name);
      // Claude Code's auto-mode dialog asks whether to leave a safety mode: nothing in it is safe.
      if (read.kind !== 'permission' || !read.complete || read.source === 'screen:auto_mode_unavailable') continue;
      assert.deepEqual(safe.map((choice) => choice.role), ['allow-once', 'deny'], `${moment.name}: ${read.choices.map((choice) => `${choice.label} (${choice.role})`).join(', ')}`);
      offered.set(moment.label.agent, (offered.get(moment.label.agent) ?? 0) + 1);
    }
    assert.deepEqual([...offered.keys()].sort(), ['claude', 'cline', 'codex', 'continue', 'copilot', 'gemini', 'grok-cli', 'opencode', 'qwen']);
  });
});
