import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { readCapture, truncateCapture } from '../../src/cli/offline/capture.ts';
import { timedVerdicts } from '../../src/cli/offline/replay-timed.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const TURNS = fileURLToPath(new URL('../fixtures/streams/claude/2.1.332/', import.meta.url));
const FINISHED: Record<string, Record<string, number>> = {
  '70x20-turns': { '07-idle-after-tools': 45254, '09-idle-after-esc': 57336 },
  '160x40-turns': { '07-idle-after-tools': 70008, '09-idle-after-esc': 96604 },
  '250x70-turns': { '07-idle-after-tools': 102043, '09-idle-after-esc': 158235 },
};

// Issue 39: the transcript's last motion drew the finished turn (its summary, or "Interrupted" after an
// Esc), and transcript_in_motion held working for its whole window: done came 1.45 s late.
describe('Claude Code 2.1.332: a finished turn reads idle as soon as it is drawn', () => {
  const claude = new ManifestSet({ userDir: null, catalogDir: null }).get('claude')!;
  for (const [size, labels] of Object.entries(FINISHED)) {
    for (const [label, bytes] of Object.entries(labels)) {
      it(`${size} ${label}`, async () => {
        const capture = truncateCapture(readCapture(join(TURNS, size, 'session.cast')), bytes);
        const { verdicts } = await timedVerdicts(capture, claude, { cols: capture.cols!, rows: capture.rows! });
        const drawn = verdicts.at(-1)!;
        assert.equal(drawn.offset, bytes);
        assert.deepEqual([drawn.verdict.state, drawn.verdict.rule?.id], ['idle', 'prompt_box'], 'judged at the moment its last output arrived');
      });
    }
  }
});
