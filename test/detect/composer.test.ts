import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { isKeyName } from '../../src/terminal/keys.ts';
import { readCapture } from '../../src/cli/offline/capture.ts';
import { replayAtOffsets } from '../../src/cli/offline/replay-stream.ts';
import { readComposer } from '../../src/detect/composer-read.ts';
import type { ManifestError } from '../../src/detect/errors.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';
import { manifest, RULE, screen } from './helpers.ts';

const STREAMS = fileURLToPath(new URL('../fixtures/streams/', import.meta.url));
const bundled = new ManifestSet({ userDir: null, catalogDir: null });

const BOX = `
[composer]
region = "prompt_box_body"
prefix = '^> '
empty = ['^Type here$']
clear = ["C-u"]
`;

describe('[composer]: the text waiting in an agent\'s input box', () => {
  it('reads the draft after the prefix, with the lines under it, and a placeholder as empty', () => {
    const m = manifest(BOX);
    assert.deepEqual(readComposer(m.composer!, screen(`hello\n${RULE}\n> fix the build\n  and the tests ​\n${RULE}\nfooter`)), { draft: 'fix the build\n  and the tests' });
    assert.deepEqual(readComposer(m.composer!, screen(`${RULE}\n> Type here\n${RULE}`)), { draft: '' });
    assert.deepEqual(readComposer(m.composer!, screen(`${RULE}\n>\n${RULE}`)), null, 'no prefix: the box is not on screen');
  });

  it('ends the draft at `end`', () => {
    const m = manifest(`[composer]\nregion = "whole_recent"\nprefix = '^ > '\nend = '^▀{8}'\nclear = ["C-c"]\n`);
    assert.deepEqual(readComposer(m.composer!, screen(` > two\n   lines\n${'▀'.repeat(20)}\n workspace`)), { draft: 'two\n   lines' });
  });

  it('is checked strictly when the manifest loads', () => {
    const refused = (body: string): string => {
      try {
        manifest(body);
      } catch (error) {
        return `${(error as ManifestError).code}: ${(error as Error).message}`;
      }
      return 'loaded';
    };
    assert.match(refused(BOX.replace('clear', 'clean')), /^manifest_unknown_key: .*unknown key "clean" in \[composer\]/);
    assert.match(refused(BOX.replace('clear = ["C-u"]', '')), /^manifest_invalid_value: .*composer\.clear must be a list/);
    assert.match(refused(BOX.replace('clear = ["C-u"]', 'clear = []')), /composer\.clear must be 1\.\.8 key names/);
    assert.match(refused(BOX.replace('"C-u"', '"ctrl u;"')), /composer\.clear must be 1\.\.8 key names/);
    assert.match(refused(BOX.replace('prompt_box_body', 'osc_title')), /holds no rows of the screen/);
    assert.match(refused(BOX.replace('prompt_box_body', 'below_match')), /holds no rows of the screen/);
    assert.match(refused(BOX.replace("prefix = '^> '", '')), /composer\.prefix is required/);
    assert.match(refused(BOX.replace("'^> '", `'${'a'.repeat(513)}'`)), /^manifest_limit_exceeded/);
    assert.match(refused(BOX.replace("'^> '", "'(?<=x)> '")), /^manifest_bad_regex: .*composer/);
    assert.match(refused(BOX.replace("empty = ['^Type here$']", `empty = [${Array(9).fill("'x'").join(', ')}]`)), /^manifest_limit_exceeded: .*composer\.empty/);
  });

  it('every bundled composer clears with keys the daemon knows', () => {
    for (const id of ['claude', 'qwen', 'gemini']) {
      const composer = bundled.get(id)?.composer;
      assert.ok(composer, `${id} reads its composer`);
      for (const key of composer.spec.clear) assert.ok(isKeyName(key), `${id}: ${key}`);
    }
  });
});

/** The draft read at each labelled moment named here, in every recording of the agent's version. */
const EXPECTED: Array<{ agent: string; version: string; labels: Record<string, string> }> = [
  { agent: 'claude', version: '2.1.332', labels: { '01-idle-startup': '', '02-idle-prompt-typed': 'Please answer slowly', '05-idle-turn-done': '', '09-idle-after-esc': '', '10-idle-prompt-typed-unsent': 'A prompt typed but not sent' } },
  { agent: 'claude', version: '2.1.328', labels: { '01-idle-startup': '', '02-idle-prompt-typed': 'Please answer slowly', '05-idle-turn-done': '' } },
  { agent: 'qwen', version: '0.24.4', labels: { '01-idle-startup': '', '02-idle-prompt-typed': 'Please answer slowly', '04-working-streaming': '', '05-idle-turn-done': '' } },
  { agent: 'gemini', version: '0.61.0', labels: { '01-idle-startup': '', '02-idle-prompt-typed': 'Please answer slowly', '04-working-streaming': '', '05-idle-turn-done': '' } },
];

describe('the bundled composers on the recorded streams, at every size', () => {
  for (const { agent, version, labels } of EXPECTED) {
    const root = join(STREAMS, agent, version);
    for (const size of readdirSync(root).filter((name) => existsSync(join(root, name, 'labels.json')))) {
      it(`${agent} ${version} ${size}`, async () => {
        const cases = (JSON.parse(readFileSync(join(root, size, 'labels.json'), 'utf8')) as Array<{ file: string; bytes: number; label: string; cols: number; rows: number }>)
          .filter((c) => c.label in labels);
        if (cases.length === 0) return;
        const composer = bundled.get(agent)!.composer!;
        const read: Record<string, string | null> = {};
        const want: Record<string, string> = {};
        await replayAtOffsets(readCapture(join(STREAMS, cases[0]!.file)), cases.map((c) => c.bytes), { cols: cases[0]!.cols, rows: cases[0]!.rows }, (offset, input) => {
          for (const c of cases.filter((one) => one.bytes === offset)) {
            read[c.label] = readComposer(composer, input)?.draft ?? null;
            want[c.label] = labels[c.label]!;
          }
        });
        assert.deepEqual(read, want);
      });
    }
  }
});
