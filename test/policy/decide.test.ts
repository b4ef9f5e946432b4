import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decide, type DecisionInput } from '../../src/policy/decide.ts';
import { parsePolicy } from '../../src/policy/parse-policy.ts';
import type { Policy } from '../../src/policy/policy-spec.ts';
import type { AgentPrompt } from '../../src/protocol/prompt.ts';

function policyOf(text: string): Policy {
  const file = parsePolicy(text, 'policy.toml', 'main');
  return { files: ['policy.toml'], mode: 'on', loopLimit: 10, answerDelayMs: 0, rules: file.rules };
}

function bash(command: string, extra: Partial<AgentPrompt> = {}): AgentPrompt {
  return {
    id: 'p1',
    kind: 'permission',
    text: `Bash command\n${command}\nDo you want to proceed?`,
    choices: [
      { id: 'yes', label: 'Yes', keys: ['1'], default: true, role: 'allow-once' },
      { id: 'yes-and-don-t-ask-again', label: "Yes, and don't ask again for npm commands", keys: ['2'], default: false, role: 'allow-always' },
      { id: 'no', label: 'No, and tell Claude what to do differently', keys: ['3'], default: false, role: 'deny' },
    ],
    freeText: false,
    note: null,
    source: 'screen:tool_permission',
    complete: true,
    incomplete: null,
    ...extra,
  };
}

const input = (prompt: AgentPrompt, extra: Partial<DecisionInput> = {}): DecisionInput => ({
  agent: 'claude',
  identity: 'process',
  host: 'box',
  workspace: 'api',
  pane: { id: 'api:1', name: 'worker' },
  cwd: '/src/api',
  prompt,
  ...extra,
});

const POLICY = policyOf(
  [
    '[[rule]]',
    'tool = "Bash"',
    "command = 'npm test'",
    'action = "allow"',
    '[[rule]]',
    "command = '.*curl.*'",
    'action = "deny"',
    'message = "no downloads"',
    '[[rule]]',
    "command = 'git push.*'",
    'action = "allow"',
    'choice = "yes-and-don-t-ask-again"',
  ].join('\n'),
);

describe('a policy decides a prompt: first match wins, ask by default, and the safety no rule turns off', () => {
  it('allows a matched command with the allow-once choice, naming the rule and its line', () => {
    const decision = decide(POLICY, input(bash('npm test')));
    assert.deepEqual([decision.action, decision.choice, decision.rule], ['allow', 'yes', { number: 1, name: null, file: 'policy.toml', line: 1 }]);
    assert.deepEqual(decision.subject, { tool: 'bash', command: 'npm test', path: null });
  });

  it('denies with the deny choice and the message, and takes an allow-always choice only where a rule names it', () => {
    const denied = decide(POLICY, input(bash('curl https://example.com')));
    assert.deepEqual([denied.action, denied.choice, denied.message], ['deny', 'no', 'no downloads']);
    const named = decide(POLICY, input(bash('git push origin main')));
    assert.deepEqual([named.action, named.choice], ['allow', 'yes-and-don-t-ask-again']);
  });

  it('never lets a plain allow match a compound command: the next rule or ask decides', () => {
    for (const command of ['npm test && curl x | sh', 'npm test; rm -rf /', 'npm test | tee log', 'npm test $(whoami)', 'npm test `id`', 'npm test > out', 'npm test\nrm x', 'npm test || true', 'npm test &']) {
      const decision = decide(POLICY, input(bash(command)));
      assert.notEqual(decision.action, 'allow', command);
    }
    assert.equal(decide(POLICY, input(bash('npm test && curl x | sh'))).action, 'deny', 'the deny rule still matches');
    const compoundAllowed = policyOf("[[rule]]\ncommand = 'npm test.*'\ncompound = true\naction = \"allow\"\n");
    assert.equal(decide(compoundAllowed, input(bash('npm test | tee log'))).action, 'allow');
  });

  it('asks for an unmatched prompt, an incomplete one and an agent not identified by its process', () => {
    assert.match(decide(POLICY, input(bash('make'))).reason, /no rule matched/);
    const incomplete = decide(POLICY, input(bash('npm test', { complete: false, incomplete: 'its footer is not drawn' })));
    assert.equal(incomplete.action, 'ask');
    assert.match(incomplete.reason, /not complete/);
    for (const identity of ['report', 'hint', 'none'] as const) assert.equal(decide(POLICY, input(bash('npm test'), { identity })).action, 'ask', identity);
  });

  it('takes no command from a form that shows the command beside its description, which cannot be told apart', () => {
    const described = bash('npm test', { text: 'Bash command\nRun the tests\nnpm test\nDo you want to proceed?' });
    const decision = decide(POLICY, input(described));
    assert.deepEqual(decision.subject, { tool: 'bash', command: null, path: null });
    assert.equal(decision.action, 'ask');
    assert.equal(decide(policyOf('[[rule]]\ntool = "Bash"\naction = "allow"\n'), input(described)).action, 'ask', 'nor a rule for any Bash command');
  });

  it('answers a trust dialog only under a rule that names its kind', () => {
    const trust = bash('npm test', { kind: 'trust' });
    assert.equal(decide(policyOf('[[rule]]\naction = "allow"\n'), input(trust)).action, 'ask');
    assert.match(decide(policyOf('[[rule]]\nkind = "trust"\naction = "allow"\n'), input(trust)).reason, /name one with "choice"/, 'no default choice outside a permission');
    assert.equal(decide(policyOf('[[rule]]\nkind = "trust"\naction = "allow"\nchoice = "yes"\n'), input(trust)).action, 'allow');
  });

  it('matches agent, workspace, pane name and working folder, and asks when the named choice is not offered', () => {
    const scoped = policyOf("[[rule]]\nagent = \"codex\"\naction = \"allow\"\n[[rule]]\nworkspace = \"api\"\npane = \"worker\"\ncwd = '/src/.*'\naction = \"allow\"\nchoice = \"maybe\"\n");
    const decision = decide(scoped, input(bash('ls')));
    assert.equal(decision.action, 'ask');
    assert.equal(decision.rule?.number, 2);
    assert.match(decision.reason, /offers no choice "maybe"/);
    assert.match(decide(scoped, input(bash('ls'), { cwd: '/home' })).reason, /no rule matched/);
  });
});
