import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { StreamCase } from '../../src/cli/offline/conformance-run.ts';
import { readCapture } from '../../src/cli/offline/capture.ts';
import { replayAtOffsets } from '../../src/cli/offline/replay-stream.ts';
import { evaluate } from '../../src/detect/evaluate.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const STREAMS = fileURLToPath(new URL('../fixtures/streams/', import.meta.url));
const manifests = new ManifestSet({ userDir: null, catalogDir: null });

/** The rule each labelled moment must be decided by: the whole trace, not only the final state. */
const EXPECTED_RULES: Record<string, string[]> = {
  'claude-code': ['trust_dialog', 'prompt_box', 'prompt_box', 'spinner_line', 'permission_form_footer', 'spinner_line', 'prompt_box', 'question_form_footer', 'prompt_box'],
  codex: ['trust_dialog', 'prompt_at_bottom', 'prompt_at_bottom', 'live_status_line', 'action_required_title', 'live_status_line', 'prompt_at_bottom'],
};

for (const [folder, rules] of Object.entries(EXPECTED_RULES)) {
  describe(`replay of the recorded ${folder} session`, () => {
    const labels = JSON.parse(readFileSync(`${STREAMS}${folder}/labels.json`, 'utf8')) as StreamCase[];

    it('decides every labelled moment with the expected rule and state', async () => {
      const data = readCapture(`${STREAMS}${labels[0]!.file}`);
      const trace: string[] = [];
      await replayAtOffsets(data, labels.map((l) => l.bytes), { cols: labels[0]!.cols, rows: labels[0]!.rows }, (offset, input) => {
        const label = labels.find((l) => l.bytes === offset)!;
        const verdict = evaluate(manifests.get(label.agent)!, input);
        assert.equal(verdict.state, label.expect.state, `${label.label} at byte ${offset}`);
        trace.push(verdict.rule?.id ?? 'fallback');
      });
      assert.deepEqual(trace, rules);
    });
  });
}
