import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readPrompt } from '../../src/detect/prompt-read.ts';
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
});
