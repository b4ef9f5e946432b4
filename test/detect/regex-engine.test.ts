import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ManifestError } from '../../src/detect/errors.ts';
import { evaluate } from '../../src/detect/evaluate.ts';
import { parseManifest } from '../../src/detect/parse.ts';
import { manifest, screen } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Only a guard against a hang: a backtracking engine spends minutes on these screens, RE2 microseconds. */
const HANG_GUARD_MS = 60_000;

function rule(pattern: string, key = 'line_regex'): string {
  return `[[rules]]\nid = "r"\nstate = "blocked"\n${key} = [${JSON.stringify(pattern)}]\n`;
}

function matches(pattern: string, text: string, key = 'line_regex'): boolean {
  return evaluate(manifest(rule(pattern, key)), screen(text)).state === 'blocked';
}

function refusal(pattern: string): ManifestError {
  try {
    parseManifest(`id = "demo"\nversion = "1.0.0"\n${rule(pattern)}`, { file: 'hostile.toml', source: 'test' });
  } catch (error) {
    assert.ok(error instanceof ManifestError, `expected a ManifestError, got ${error}`);
    return error;
  }
  assert.fail(`the pattern ${pattern} loaded`);
}

describe('manifest regexes run in linear time (RE2)', () => {
  it('evaluates catastrophic patterns on the screens that make a backtracking engine hang', () => {
    // In a child process: a backtracking engine would block this test's own event loop for minutes.
    const script = `
      import { evaluate } from './src/detect/evaluate.ts';
      import { parseManifest } from './src/detect/parse.ts';
      const patterns = ['(a+)+$', '(a|a)*b', '(a|aa)+$', '^(\\\\s*)*$', '(.*a){12}$'];
      const hostile = 'a'.repeat(60) + '!';
      const states = [];
      for (const [i, pattern] of patterns.entries()) {
        for (const key of ['regex', 'line_regex']) {
          const m = parseManifest('id = "hostile"\\nversion = "1.0.0"\\n[[rules]]\\nid = "r' + i + '"\\nstate = "blocked"\\n' + key + ' = [' + JSON.stringify(pattern) + ']\\n', { file: 'hostile.toml', source: 'test' });
          const text = pattern.startsWith('^') ? ' '.repeat(60) + '!' : hostile;
          states.push(evaluate(m, { lines: [text, text], title: null, progress: null }).state);
        }
      }
      console.log(JSON.stringify(states));
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, timeout: HANG_GUARD_MS, encoding: 'utf8' });
    assert.equal(child.signal, null, `evaluation did not finish within the hang guard (${HANG_GUARD_MS} ms): ${child.stderr}`);
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), Array(10).fill('unknown'));
  });

  it('refuses lookaround and backreferences at load, naming the file, the rule and the pattern', () => {
    for (const pattern of ['^\\s*>\\s+(?!Type)\\S', 'a(?=b)', '(?<=a)b', '(?<!a)b']) {
      const error = refusal(pattern);
      assert.equal(error.code, 'manifest_bad_regex');
      assert.equal(error.position?.file, 'hostile.toml');
      assert.equal(error.position?.line, 6);
      assert.ok(error.message.includes(`rule r: pattern ${JSON.stringify(pattern)} does not compile: lookahead and lookbehind are not supported`), error.message);
    }
    for (const pattern of ['(a)\\1', '(?<x>a)\\k<x>']) {
      assert.match(refusal(pattern).message, /backreferences are not supported: manifest patterns run in linear time/);
    }
    assert.match(refusal('[]a').message, /an empty class \[\] is not supported/);
    assert.match(refusal('(a').message, /rule r: pattern "\(a" does not compile: missing closing \)/);
  });

  it('keeps the JavaScript meaning of \\s, \\S and . for every code point', () => {
    const space = manifest(rule('^\\s$')).rules[0]!.lineRegex[0]!;
    const nonSpace = manifest(rule('^\\S$')).rules[0]!.lineRegex[0]!;
    const inClass = manifest(rule('^[^\\S\\n]$')).rules[0]!.lineRegex[0]!;
    const dot = manifest(rule('^.$')).rules[0]!.lineRegex[0]!;
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x10000 ? 1 : 0x3ff) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const char = String.fromCodePoint(cp);
      const checks: [string, boolean, boolean][] = [
        ['\\s', space.test(char), /^\s$/u.test(char)],
        ['\\S', nonSpace.test(char), /^\S$/u.test(char)],
        ['[^\\S\\n]', inClass.test(char), /^[^\S\n]$/u.test(char)],
        ['.', dot.test(char), /^.$/u.test(char)],
      ];
      for (const [name, re2, js] of checks) if (re2 !== js) wrong.push(`${name} U+${cp.toString(16)}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('reads \\u escapes, glyph classes, case-insensitivity and Unicode properties', () => {
    assert.ok(matches('^\\s*[\\u2800-\\u28FF]\\s+\\S', ' ⠋ Working'));
    assert.ok(matches('^\\u{1F311} new moon$', '🌑 new moon'));
    assert.ok(matches('^\\uD83C\\uDF11$', '🌑'));
    assert.ok(matches('^{moon} ', '🌘 waiting'));
    assert.ok(matches('(?i)^esc TO interrupt\\b', 'ESC to Interrupt now'));
    assert.ok(matches('^\\p{L}+ing\\b', 'Thinking…'));
    assert.ok(!matches('^\\p{L}+ing\\b', '42ing'));
    assert.ok(matches('^❯\\s\\S+$', '❯\u00a0typed'), 'a no-break space is whitespace, as in JavaScript');
  });

  it('finds the same leftmost match a backtracking engine finds, for time evidence and explain', () => {
    const m = manifest(rule('(?:^|\\n)\\s*Do you want to [^\\n]{1,20}\\?', 'regex'));
    const pattern = m.rules[0]!.regex[0]!;
    const text = 'intro\n  Do you want to go? yes\n  Do you want to stay?';
    assert.equal(pattern.find(text), /(?:^|\n)\s*Do you want to [^\n]{1,20}\?/u.exec(text)![0]);
    assert.equal(pattern.find('nothing here'), null);
  });

  it('looks for a case-insensitive literal first without missing case variants that fold', () => {
    // U+017F folds with s and U+212A with k: a filter on lower-cased text must not refuse them.
    assert.ok(matches('(?i)esc to cancel', 'E\u017fc to cancel'));
    assert.ok(matches('(?i)ask me', 'AS\u212a ME'));
    assert.ok(matches('(?i)enter to confirm', 'ENTER TO CONFIRM'));
    assert.ok(!matches('(?i)enter to confirm', 'enter to cancel'));
  });
});
