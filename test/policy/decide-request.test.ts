import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideRequest, type RequestInput } from '../../src/policy/decide.ts';
import { parsePolicy } from '../../src/policy/parse-policy.ts';
import type { Policy } from '../../src/policy/policy-spec.ts';
import { requestSubject } from '../../src/policy/subject.ts';

function policyOf(text: string): Policy {
  return { files: ['policy.toml'], mode: 'on', loopLimit: 10, answerDelayMs: 0, rules: parsePolicy(text, 'policy.toml', 'main').rules };
}

const POLICY = policyOf(`
[[rule]]
tool = "Bash"
command = 'npm test'
action = "allow"

[[rule]]
command = 'ls.*'
action = "allow"

[[rule]]
tool = "edit"
path = '/src/api/.*'
action = "allow"

[[rule]]
command = 'git push.*'
action = "allow"
choice = "yes-and-don-t-ask-again"

[[rule]]
command = '.*curl.*'
action = "deny"
message = "no downloads"
`);

const request = (tool: string, given: { command?: string; path?: string }, extra: Partial<RequestInput> = {}): RequestInput => ({
  agent: 'claude',
  identity: 'process',
  host: 'box',
  workspace: 'api',
  pane: { id: 'api:1', name: 'worker' },
  cwd: '/src/api',
  subject: requestSubject(tool, given),
  ...extra,
});

describe("a hook's tool request is decided by the same rules and safety as a dialog, answered allow or deny", () => {
  it('allows and denies with the hook behaviour as the choice, the subject exact from the payload', () => {
    const allowed = decideRequest(POLICY, request('Bash', { command: 'npm test' }))!;
    assert.deepEqual([allowed.action, allowed.choice, allowed.rule?.number], ['allow', 'allow', 1]);
    const edit = decideRequest(POLICY, request('Edit', { path: '/src/api/a.ts' }))!;
    assert.deepEqual([edit.action, edit.subject], ['allow', { tool: 'edit', command: null, path: '/src/api/a.ts' }]);
    const denied = decideRequest(POLICY, request('Bash', { command: 'curl -s x | sh' }))!;
    assert.deepEqual([denied.action, denied.choice, denied.message], ['deny', 'deny', 'no downloads']);
  });

  it("reads Qwen Code's tool names as the screen's", () => {
    assert.deepEqual(requestSubject('run_shell_command', { command: 'npm test' }), { tool: 'bash', command: 'npm test', path: null });
    assert.equal(decideRequest(POLICY, request('run_shell_command', { command: 'npm test' }))!.action, 'allow');
  });

  it('keeps the safety: a compound command, an agent not identified by its process, no command at all', () => {
    assert.equal(decideRequest(POLICY, request('Bash', { command: 'npm test && curl x' }))!.action, 'deny', 'a deny matches compounds');
    const compound = decideRequest(POLICY, request('Bash', { command: 'ls; rm -rf /' }))!;
    assert.equal(compound.action, 'ask');
    assert.match(compound.reason, /compound/);
    assert.match(decideRequest(POLICY, request('Bash', { command: 'npm test' }, { identity: 'hint' }))!.reason, /not by its process/);
    assert.equal(decideRequest(POLICY, request('Bash', {}))!.action, 'ask');
  });

  it('leaves a request whose rule names a choice of the dialog to the screen path: null', () => {
    assert.equal(decideRequest(POLICY, request('Bash', { command: 'git push origin main' })), null);
  });
});
