import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir } from '../../harness/daemon.ts';
import { loadPolicy, withProjectRules } from '../../src/policy/load-policy.ts';
import { PolicyError } from '../../src/policy/policy-error.ts';

describe('a policy is read from policy.toml beside config.toml, the files [policy] names, and a project that only narrows', () => {
  const dir = makeTempDir();
  const config = join(dir, 'config.toml');
  writeFileSync(join(dir, 'policy.toml'), 'loop_limit = 4\n[[rule]]\ncommand = \'npm test\'\naction = "allow"\n');
  writeFileSync(join(dir, 'team.toml'), '[[rule]]\ncommand = \'git push.*\'\naction = "deny"\n');

  it('numbers the rules of every file on, in order, with their files and lines', () => {
    const policy = loadPolicy(config, ['team.toml']);
    assert.equal(policy.loopLimit, 4);
    assert.deepEqual(policy.rules.map((rule) => [rule.number, rule.file, rule.line]), [
      [1, join(dir, 'policy.toml'), 2],
      [2, join(dir, 'team.toml'), 1],
    ]);
    assert.throws(() => loadPolicy(config, ['missing.toml']), PolicyError, 'a file [policy] names must exist');
    assert.equal(loadPolicy(join(makeTempDir(), 'config.toml')).rules.length, 0, 'no policy.toml: no rules');
  });

  it('tries a project\'s rules first, and makes every decision ask when the project file is not valid', () => {
    const policy = loadPolicy(config, []);
    const project = join(dir, 'project');
    mkdirSync(join(project, '.corral'), { recursive: true });
    writeFileSync(join(project, '.corral', 'policy.toml'), '[[rule]]\ncommand = \'npm test\'\naction = "ask"\n');
    const narrowed = withProjectRules(policy, project);
    assert.ok(!(narrowed instanceof PolicyError));
    assert.deepEqual(narrowed.rules.map((rule) => [rule.number, rule.action]), [
      [1, 'ask'],
      [2, 'allow'],
    ]);
    writeFileSync(join(project, '.corral', 'policy.toml'), '[[rule]]\naction = "allow"\n');
    const refused = withProjectRules(policy, project);
    assert.ok(refused instanceof PolicyError);
    assert.match(refused.message, /only narrows/);
    assert.equal(withProjectRules(policy, dir), policy, 'a folder without its own file');
  });
});
