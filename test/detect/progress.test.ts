// OSC 9;4 with state 0 removes a terminal's progress bar: the turn that set it is over.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { evaluate } from '../../src/detect/evaluate.ts';
import { parseManifest } from '../../src/detect/parse.ts';

const MANIFESTS = fileURLToPath(new URL('../../manifests/', import.meta.url));
const bundled = (id: string) => parseManifest(readFileSync(`${MANIFESTS}${id}.toml`, 'utf8'), { file: `${id}.toml`, source: 'bundled' });

for (const id of ['claude', 'codex']) {
  test(`${id}: OSC 9;4 state 0 is idle evidence, and only where no screen rule speaks`, () => {
    const manifest = bundled(id);
    const cleared = evaluate(manifest, { lines: ['some answer text'], title: null, progress: { state: 0, percent: null } });
    assert.deepEqual([cleared.state, cleared.rule?.id], ['idle', 'progress_cleared']);
    assert.equal(evaluate(manifest, { lines: ['some answer text'], title: null, progress: { state: 3, percent: null } }).state, 'unknown');
    const working = evaluate(manifest, { lines: ['some answer text'], title: '⠋ busy | project', progress: { state: 0, percent: null } });
    assert.equal(working.state, 'working', 'a spinning title outranks it');
  });
}
