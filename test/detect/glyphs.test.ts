import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { evaluate } from '../../src/detect/evaluate.ts';
import { explain } from '../../src/detect/explain.ts';
import { expandGlyphClasses } from '../../src/detect/glyphs.ts';
import { ManifestError } from '../../src/detect/errors.ts';
import { manifest, screen } from './helpers.ts';

const MANIFESTS = fileURLToPath(new URL('../../manifests/', import.meta.url));

describe('glyph classes', () => {
  it('match every frame of a family in titles and screen rows alike', () => {
    const m = manifest(`
[[rules]]
id = "title_spinner"
state = "working"
priority = 2
region = "osc_title"
regex = ['^{braille} ']
[[rules]]
id = "status_row"
state = "working"
priority = 1
line_regex = ['^{spinner} Working']
`);
    for (const frame of ['⠋', '⠙', '⣾', '⠀']) assert.equal(evaluate(m, screen('', `${frame} Claude Code`)).rule?.id, 'title_spinner', frame);
    for (const frame of ['◐', '◓', '✻', '•', '◦', '⬢', '🌗']) assert.equal(evaluate(m, screen(`${frame} Working`)).rule?.id, 'status_row', frame);
    assert.equal(evaluate(m, screen('> Working', '✳ Claude Code')).state, 'unknown');
  });

  it('expand inside brackets to their members, and leave escapes and Unicode properties alone', () => {
    assert.deepEqual(expandGlyphClasses('^[^{braille}\\s]'), { source: '^[^⠀-⣿\\s]' });
    assert.deepEqual(expandGlyphClasses('^{half_circle} \\{braille\\} \\p{L}{2}'), { source: '^[◐◓◑◒] \\{braille\\} \\p{L}{2}' });
  });

  it('refuse an unknown class with manifest_bad_regex naming the known ones', () => {
    assert.throws(
      () => manifest('[[rules]]\nid = "r"\nstate = "working"\nregex = [\'^{brail} \']\n'),
      (error: ManifestError) => error.code === 'manifest_bad_regex' && /unknown glyph class \{brail\}; known: \{braille\}/.test(error.message),
    );
  });

  it('show the pattern as written in explain', () => {
    const m = manifest('[[rules]]\nid = "spin"\nstate = "working"\nregion = "osc_title"\nregex = [\'^{braille} \']\n');
    const rule = explain(m, screen('', '⠐ Claude Code')).evaluatedRules[0]!;
    assert.match(rule.evidence.matcher ?? '', /regex \/\^\{braille\} \/ hit/);
  });

  it('read a title spinning half-circle frames as working in every bundled title rule', async () => {
    const { parseManifest } = await import('../../src/detect/parse.ts');
    const bundled = (id: string) => parseManifest(readFileSync(`${MANIFESTS}${id}.toml`, 'utf8'), { file: `${id}.toml`, source: 'bundled' });
    const codex = bundled('codex');
    for (const frame of ['⠋', '◐', '◓', '◴']) assert.equal(evaluate(codex, screen('', `${frame} mockbash: touch | project`)).state, 'working', frame);
    assert.equal(evaluate(codex, screen('', 'mockbash: touch | project')).state, 'idle');
    const claude = bundled('claude');
    assert.equal(evaluate(claude, screen('', '◑ Claude Code')).rule?.id, 'title_spinner');
    assert.equal(evaluate(claude, screen('', '✳ Claude Code')).rule?.id, 'title_idle_glyph');
  });

  it('are the only way bundled manifests write braille or half-circle frames', () => {
    for (const file of readdirSync(MANIFESTS).filter((name) => name.endsWith('.toml'))) {
      const patterns = readFileSync(`${MANIFESTS}${file}`, 'utf8').split('\n').filter((line) => !line.trimStart().startsWith('#') && !/^\s*evidence\s*=/.test(line));
      assert.deepEqual(patterns.filter((line) => /[\u2800-\u28ff◐◓◑◒]/u.test(line)), [], file);
    }
  });
});
