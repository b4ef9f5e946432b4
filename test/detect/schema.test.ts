import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManifestError } from '../../src/detect/errors.ts';
import { LIMITS } from '../../src/detect/limits.ts';
import { parseManifest } from '../../src/detect/parse.ts';

function load(text: string) {
  return parseManifest(text, { file: 'x.toml', source: 'test' });
}

function failure(text: string): ManifestError {
  try {
    load(text);
  } catch (error) {
    assert.ok(error instanceof ManifestError, `expected a ManifestError, got ${error}`);
    return error;
  }
  assert.fail('the manifest loaded');
}

const HEADER = 'id = "demo"\nversion = "1.0.0"\n';
const RULE = '[[rules]]\nid = "r"\nstate = "idle"\ncontains = ["x"]\n';

describe('manifest schema', () => {
  it('loads a minimal manifest with defaults', () => {
    const m = load(HEADER + RULE);
    assert.equal(m.spec.fallback, 'unknown');
    assert.equal(m.spec.name, 'demo');
    assert.equal(m.rules[0]!.spec.region.name, 'whole_recent');
  });

  it('names an unknown top-level key, the allowed keys, and its line and column', () => {
    const error = failure(`${HEADER}fallbak = "idle"\n${RULE}`);
    assert.equal(error.code, 'manifest_unknown_key');
    assert.deepEqual(error.position, { file: 'x.toml', line: 3, column: 1 });
    assert.match(error.message, /unknown key "fallbak".*allowed keys: id, name, aliases, version/);
  });

  it('finds an unknown key inside the right [[rules]] table and inside a gate', () => {
    const second = `${HEADER}${RULE}\n[[rules]]\nid = "s"\nstate = "idle"\n  contans = ["x"]\n`;
    const error = failure(second);
    assert.deepEqual(error.position, { file: 'x.toml', line: 11, column: 3 });
    assert.match(error.message, /unknown key "contans" in rule 2; allowed keys: id, state, priority, region/);
    const gate = failure(`${HEADER}[[rules]]\nid = "r"\nstate = "idle"\nall = [{ contains = ["a"], regx = ["b"] }]\n`);
    assert.equal(gate.position?.line, 6);
    assert.equal(gate.position?.column, 28);
    assert.match(gate.message, /unknown key "regx" in a gate of rule r/);
  });

  it('finds an unknown key in [identity] and an unknown table', () => {
    assert.equal(failure(`${HEADER}[identity]\nexecutable = ["x"]\n`).position?.line, 4);
    const table = failure(`${HEADER}[identiy]\nexecutables = ["x"]\n`);
    assert.equal(table.position?.line, 3);
    assert.match(table.message, /unknown key "identiy"/);
  });

  it('reports TOML syntax errors with their position', () => {
    const error = failure(`${HEADER}[[rules]]\nid = "r\n`);
    assert.equal(error.code, 'manifest_syntax');
    assert.equal(error.position?.line, 4);
  });

  it('names the rule whose regex does not compile', () => {
    const error = failure(`${HEADER}[[rules]]\nid = "broken_one"\nstate = "idle"\nregex = ['(unclosed']\n`);
    assert.equal(error.code, 'manifest_bad_regex');
    assert.match(error.message, /rule broken_one: pattern "\(unclosed" does not compile/);
    assert.equal(error.position?.line, 6);
  });

  it('refuses duplicate rule ids, rules without matchers and bad states', () => {
    assert.equal(failure(HEADER + RULE + RULE).code, 'manifest_duplicate_rule');
    assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "idle"\n`).message, /has no matcher/);
    assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "done"\ncontains = ["x"]\n`).message, /state must be idle, working, blocked or unknown/);
  });

  it('allows skip_state_update only with state unknown and no visible flag', () => {
    const ok = load(`${HEADER}[[rules]]\nid = "r"\nstate = "unknown"\nskip_state_update = true\ncontains = ["x"]\n`);
    assert.equal(ok.rules[0]!.spec.skipStateUpdate, true);
    assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "idle"\nskip_state_update = true\ncontains = ["x"]\n`).message, /skip_state_update needs state = "unknown"/);
    assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "unknown"\nskip_state_update = true\nvisible_idle = true\ncontains = ["x"]\n`).message, /no visible_\* flag/);
  });

  it('checks version, min_engine_version, fallback and regions', () => {
    assert.match(failure('id = "demo"\nversion = "1.x"\n').message, /dotted numeric/);
    assert.equal(failure(`${HEADER}min_engine_version = 99\n`).code, 'manifest_engine_too_old');
    assert.match(failure(`${HEADER}fallback = "working"\n`).message, /fallback must be "unknown" or "idle"/);
    assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "idle"\nregion = "bottom_lines"\ncontains = ["x"]\n`).message, /needs a line count/);
    assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "idle"\nregion = "middle"\ncontains = ["x"]\n`).message, /unknown region "middle"; allowed: whole_recent, bottom_lines\(N\)/);
  });

  describe('named limits', () => {
    it('refuses more rules than allowed', () => {
      const rules = Array.from({ length: LIMITS.maxRulesPerManifest + 1 }, (_, i) => `[[rules]]\nid = "r${i}"\nstate = "idle"\ncontains = ["x"]\n`).join('');
      assert.equal(failure(HEADER + rules).code, 'manifest_limit_exceeded');
    });

    it('refuses gates nested deeper than allowed', () => {
      let gate = '{ contains = ["x"] }';
      for (let i = 0; i < LIMITS.maxGateDepth; i++) gate = `{ all = [${gate}] }`;
      const error = failure(`${HEADER}[[rules]]\nid = "deep"\nstate = "idle"\nall = [${gate}]\n`);
      assert.equal(error.code, 'manifest_limit_exceeded');
      assert.match(error.message, /rule deep: gates nest deeper than the limit of 4/);
    });

    it('refuses too many matchers and too long a pattern', () => {
      const many = Array.from({ length: LIMITS.maxMatchersPerRule + 1 }, (_, i) => `"m${i}"`).join(', ');
      assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "idle"\ncontains = [${many}]\n`).message, /exceed the limit of 64 per rule/);
      const long = 'a'.repeat(LIMITS.maxPatternLength + 1);
      assert.match(failure(`${HEADER}[[rules]]\nid = "r"\nstate = "idle"\nregex = ['${long}']\n`).message, /exceeds the limit of 512/);
    });

    it('refuses a file above the size limit', () => {
      assert.match(failure(`${HEADER}# ${'x'.repeat(LIMITS.maxManifestBytes)}\n`).message, /size limit/);
    });
  });
});
