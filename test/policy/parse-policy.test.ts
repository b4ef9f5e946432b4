import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePolicy } from '../../src/policy/parse-policy.ts';
import { PolicyError } from '../../src/policy/policy-error.ts';

const refusal = (text: string, role: 'main' | 'extra' | 'project' = 'main'): PolicyError => {
  try {
    parsePolicy(text, 'policy.toml', role);
  } catch (error) {
    assert.ok(error instanceof PolicyError, String(error));
    return error;
  }
  assert.fail('the policy should be refused');
};

describe('a policy file is read strictly, each refusal naming its line', () => {
  it('reads settings and rules in order, numbering them', () => {
    const policy = parsePolicy(
      ['mode = "dry-run"', 'loop_limit = 3', '', '[[rule]]', 'name = "tests"', 'agent = ["claude", "codex"]', 'tool = "Bash"', "command = 'npm (test|run lint)'", 'action = "allow"', '', '[[rule]]', 'command = \'.*curl.*\'', 'action = "deny"', 'message = "no downloads"'].join('\n'),
      'policy.toml',
      'main',
    );
    assert.equal(policy.mode, 'dry-run');
    assert.equal(policy.loopLimit, 3);
    assert.deepEqual(policy.rules.map((rule) => [rule.number, rule.line, rule.action, rule.name]), [
      [1, 4, 'allow', 'tests'],
      [2, 11, 'deny', null],
    ]);
    assert.deepEqual(policy.rules[0]!.tool, ['bash']);
    assert.equal(policy.rules[0]!.command!.matches('npm test'), true);
    assert.equal(policy.rules[0]!.command!.matches('npm test && curl x | sh'), false, 'anchored to the whole command');
  });

  it('refuses an unknown key, a bad value and a regex RE2 does not take, at their lines', () => {
    const unknown = refusal('[[rule]]\naction = "allow"\ncommnd = "x"\n');
    assert.equal(unknown.line, 3);
    assert.match(unknown.message, /^policy\.toml:3: unknown key "commnd"/);
    assert.equal(refusal('[[rule]]\n\naction = "maybe"\n').line, 3);
    assert.equal(refusal('mode = "sometimes"\n').line, 1);
    const backreference = refusal('[[rule]]\naction = "allow"\ncommand = \'(a)\\1\'\n');
    assert.equal(backreference.line, 3);
    assert.match(backreference.message, /not an RE2 regex.*backreferences and lookaround/);
    assert.equal(refusal("[[rule]]\naction = 'deny'\ncommand = 'rm(?= -rf)'\n").line, 3);
    assert.equal(refusal('[[rule]]\nagent = "claude"\n').line, 1, 'a rule without an action');
    assert.equal(refusal('[[rule]]\naction = "allow"\nkind = "permision"\n').line, 3);
    assert.equal(refusal('[[rule]]\naction = "allow"\nmessage = "x"\n').line, 3, 'a message is for deny');
    assert.match(refusal('[[rule]]\naction = "allow"\n[[rule]]\naction = "ask"\nchoice = "yes"\n').message, /^policy\.toml:5:/);
    assert.equal(refusal('mode = "on"\n[[rule\n').line, 2, 'TOML syntax');
  });

  it('keeps settings to the main file and allows to no project file', () => {
    assert.match(refusal('mode = "on"\n', 'extra').message, /setting of the main policy\.toml/);
    const project = refusal('[[rule]]\naction = "deny"\n\n[[rule]]\naction = "allow"\n', 'project');
    assert.equal(project.line, 5);
    assert.match(project.message, /only narrows/);
    assert.equal(parsePolicy('[[rule]]\naction = "deny"\n', 'p.toml', 'project').rules.length, 1);
  });
});

describe('the starter policy of docs/policy.md', () => {
  it('is a valid policy file', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/policy.md', import.meta.url), 'utf8');
    const starter = /```toml\n([\s\S]*?)```/.exec(doc)![1]!;
    const policy = parsePolicy(starter, 'policy.toml', 'main');
    assert.equal(policy.mode, 'dry-run');
    assert.deepEqual(policy.rules.map((rule) => rule.action), ['allow', 'allow', 'deny', 'deny']);
  });
});
