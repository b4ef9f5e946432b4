// The push payload and the answer tokens, as pure parts: what a notification says of a prompt, which
// buttons it may carry, and how long and how often a token answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../src/protocol/methods/inbox.ts';
import type { AgentPrompt } from '../../../src/protocol/prompt.ts';
import { AnswerTokens } from '../../../src/daemon/push/answer-tokens.ts';
import { MAX_PAYLOAD_BYTES, OPEN_TO_ANSWER, attentionPayload, encodePayload } from '../../../src/daemon/push/push-payload.ts';

const choice = (id: string, label: string, keys: string[], role: 'allow-once' | 'allow-always' | 'deny' | 'other') => ({ id, label, keys, default: false, role });
const prompt = (over: Partial<AgentPrompt> = {}): AgentPrompt => ({
  id: 'p1',
  kind: 'permission',
  text: 'Bash command\nrm -rf /tmp/scratch\nDo you want to proceed?',
  choices: [choice('yes', 'Yes', ['1'], 'allow-once'), choice('yes-and-don-t-ask-again', "Yes, and don't ask again for rm", ['2'], 'allow-always'), choice('no', 'No, and tell Claude what to do differently', ['3'], 'deny')],
  freeText: false,
  note: null,
  source: 'screen:claude-permission',
  complete: true,
  incomplete: null,
  ...over,
});
const item = (p: AgentPrompt | null): InboxItem => ({ id: 7, pane: { id: 'w1:p2', name: 'api' }, agent: 'claude', state: 'blocked', seq: 3, cursor: 9, ts: 0, title: null, message: 'waits for a decision', prompt: p });
const buttons = [{ action: 'yes', title: 'Yes', token: 't1' }];

describe('the push payload', () => {
  it('carries the whole question of a complete prompt, with its buttons', () => {
    const payload = attentionPayload(item(prompt()), 'box', buttons);
    assert.equal(payload.body, prompt().text);
    assert.equal(payload.promptId, 'p1');
    assert.deepEqual(payload.actions, buttons);
    assert.equal(payload.title, 'claude in api asks · box');
    assert.equal(payload.tag, 'corral-inbox-7');
  });

  it('says a failed agent failed, with its exit status or signal, its workspace and host, and no buttons even when given some', () => {
    const failed = (exit: InboxItem['exit']): InboxItem => ({ ...item(null), state: 'failed', message: 'claude failed', exit });
    const byStatus = attentionPayload(failed({ code: 3, signal: null }), 'box', buttons);
    assert.equal(byStatus.title, 'claude in api failed (exit 3) · box');
    assert.equal(byStatus.body, 'claude failed (exit 3) in workspace w1 on box');
    assert.deepEqual([byStatus.state, byStatus.actions, byStatus.promptId], ['failed', [], null]);
    assert.equal(attentionPayload(failed({ code: null, signal: 'SIGKILL' }), 'box', []).title, 'claude in api failed (signal SIGKILL) · box');
  });

  it('says "open to answer", with no buttons, for a prompt not read whole, none read, or one too long', () => {
    const cases: [AgentPrompt | null, typeof buttons][] = [
      [prompt({ complete: false, incomplete: 'its footer is not drawn' }), buttons],
      [null, buttons],
      [prompt({ text: 'x'.repeat(2000) }), buttons],
      // Wide characters and long labels: under the length, over the bytes every push service takes.
      [prompt({ text: '界'.repeat(590) }), [{ action: 'yes', title: '界'.repeat(400), token: 't'.repeat(43) }]],
    ];
    for (const [p, offered] of cases) {
      const payload = attentionPayload(item(p), 'box', offered);
      assert.equal(payload.body, OPEN_TO_ANSWER);
      assert.deepEqual(payload.actions, []);
      assert.equal(payload.promptId, null);
      assert.ok(encodePayload(payload).length <= MAX_PAYLOAD_BYTES);
    }
  });
});

describe('answer tokens', () => {
  it('answer once, for their own choice and pane, until their prompt leaves or their time is up', () => {
    let now = 1000;
    const tokens = new AnswerTokens(() => now);
    const grant = { pane: 'w1:p2', promptId: 'p1', choice: 'yes' };
    const token = tokens.mint(grant, 60_000);
    assert.deepEqual(tokens.spend(token, 'no', 'w1:p2'), { refused: 'invalid' });
    assert.deepEqual(tokens.spend(token, 'yes', 'w1:p3'), { refused: 'invalid' });
    assert.deepEqual(tokens.spend(token, 'yes', 'w1:p2'), grant);
    assert.deepEqual(tokens.spend(token, 'yes', 'w1:p2'), { refused: 'used' });

    const changed = tokens.mint(grant, 60_000);
    tokens.promptLeft('w1:p2', 'p1');
    tokens.promptLeft('w1:p3', null);
    assert.deepEqual(tokens.spend(changed, 'yes', undefined), grant, 'the same prompt, and another pane, close nothing');
    const left = tokens.mint(grant, 60_000);
    tokens.promptLeft('w1:p2', 'p2');
    assert.deepEqual(tokens.spend(left, 'yes', 'w1:p2'), { refused: 'prompt_changed' });

    const late = tokens.mint(grant, 60_000);
    now += 60_000;
    assert.deepEqual(tokens.spend(late, 'yes', 'w1:p2'), { refused: 'expired' });
    assert.deepEqual(tokens.spend('forged', 'yes', 'w1:p2'), { refused: 'expired' });
  });
});
