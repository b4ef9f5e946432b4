import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, test } from 'node:test';
import { HOOK_MAPPINGS } from '../../../src/cli/report/mappings.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/hooks/', import.meta.url));

for (const cli of readdirSync(FIXTURES).filter((name) => existsSync(join(FIXTURES, name, 'expected.json')))) {
  describe(`the ${cli} hook payloads captured from the real CLI`, () => {
    const expected = JSON.parse(readFileSync(join(FIXTURES, cli, 'expected.json'), 'utf8')) as Record<string, { kind: string; state?: string }>;
    const files = readdirSync(join(FIXTURES, cli)).filter((name) => name.endsWith('.json') && name !== 'expected.json');

    it('has an expectation for every captured payload', () => {
      assert.deepEqual(files.sort(), Object.keys(expected).sort());
    });

    for (const file of files) {
      it(`maps ${file}`, () => {
        const raw = readFileSync(join(FIXTURES, cli, file), 'utf8');
        const action = HOOK_MAPPINGS[cli]!.map(JSON.parse(raw));
        const want = expected[file]!;
        assert.equal(action.kind, want.kind);
        if (want.state) assert.equal(action.kind === 'state' && action.state, want.state);
        if (action.kind === 'state' || action.kind === 'release') assert.ok(action.session, 'the session id comes along');
      });
    }
  });
}

test("Claude's idle_prompt notification, about 60 s after a turn ended, is not a transition", () => {
  const action = HOOK_MAPPINGS.claude!.map({ hook_event_name: 'Notification', notification_type: 'idle_prompt', session_id: 's', message: 'Claude is waiting for your input' });
  assert.equal(action.kind, 'ignore');
});

test('a question to the user (AskUserQuestion) is blocked, other tools are working', () => {
  assert.equal((HOOK_MAPPINGS.claude!.map({ hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', session_id: 's' }) as { state: string }).state, 'blocked');
  assert.equal((HOOK_MAPPINGS.claude!.map({ hook_event_name: 'PreToolUse', tool_name: 'Read', session_id: 's' }) as { state: string }).state, 'working');
});

test("Claude's PermissionRequest names the tool and what it acts on, as the prompt's kind and text", () => {
  const raw = readFileSync(join(FIXTURES, 'claude', 'PermissionRequest-1.json'), 'utf8');
  const action = HOOK_MAPPINGS.claude!.map(JSON.parse(raw)) as { message: string };
  assert.equal(action.message, 'permission: Bash: touch capture-proof.txt');
  const asked = HOOK_MAPPINGS.claude!.map({
    hook_event_name: 'PreToolUse',
    tool_name: 'AskUserQuestion',
    tool_input: { questions: [{ question: 'Which colour should the capture use?', options: [] }] },
    session_id: 's',
  }) as { message: string };
  assert.equal(asked.message, 'question: Which colour should the capture use?');
});
