import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { makeTempDir } from '../../harness/daemon.ts';
import { runCli } from '../helpers/cli.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = 'test/fixtures/policy/sample.toml';
/** What the sample policy answers in the recorded streams of every bundled agent, one dialog a line. */
const HELD = fileURLToPath(new URL('../fixtures/policy/sample-answers.txt', import.meta.url));

describe('corral policy test runs a policy over recordings and saved screens', () => {
  it('lists every prompt the sample policy would answer in the recorded streams of every bundled agent', async () => {
    const result = await runCli(['--json', 'policy', 'test', SAMPLE, 'test/fixtures/streams'], { cwd: REPO, timeoutMs: 300_000 });
    assert.equal(result.code, 0, result.stderr);
    const entries = JSON.parse(result.stdout) as any[];
    const lines = entries.map(
      (e) => `${e.file}  ${e.agent} ${e.prompt.kind} ${e.decision.subject.tool} ${JSON.stringify(e.decision.subject.command)}  ${e.decision.action} ${e.decision.choice} by rule ${e.decision.rule.number}`,
    );
    assert.deepEqual(lines, readFileSync(HELD, 'utf8').trim().split('\n'));
    // Each agent's allow-once choice, never one that allows always.
    assert.deepEqual([...new Set(entries.map((e) => `${e.agent}:${e.decision.choice}`))].sort(), ['cline:approve', 'codex:yes-proceed', 'copilot:yes', 'gemini:allow-once', 'opencode:allow-once', 'qwen:yes-allow-once']);
  });

  it('decides a saved screen, and refuses a policy file that is not valid with its line', async () => {
    const dir = makeTempDir();
    const screen = join(dir, 'screen.txt');
    writeFileSync(
      screen,
      ['Welcome.', '', '─'.repeat(60), ' Bash command', '', '   rm -rf build', '', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No, and tell Claude what to do differently (esc)', '', ' Esc to cancel · Tab to amend'].join('\n'),
    );
    const decided = await runCli(['policy', 'test', '--all', '--agent', 'claude', SAMPLE, screen], { cwd: REPO });
    assert.equal(decided.code, 0, decided.stderr);
    assert.match(decided.stdout, /screen\.txt {2}claude permission bash "rm -rf build" {2}deny no-and-tell-claude-what-to-do by rule 2 /);
    const bad = join(dir, 'bad.toml');
    writeFileSync(bad, '[[rule]]\naction = "allow"\ncommand = \'(?<=x)y\'\n');
    const refused = await runCli(['policy', 'test', '--agent', 'claude', bad, screen], { cwd: REPO });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /bad\.toml:3: "command" is not an RE2 regex/);
  });
});
