// Web Push from a real daemon to a local push service (web-push-testing checks the VAPID JWT and
// decrypts the aes128gcm payload with the device's keys), with fake agents blocking on real PTYs.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AGENT_GET, AGENT_LIST, INBOX_LIST, PANE_SEND, PUSH_ANSWER, PUSH_KEY, PUSH_LIST, PUSH_TEST } from '../../../src/protocol/methods/index.ts';
import { vapidKeyPath } from '../../../src/daemon/push/vapid-keys.ts';
import { testEnv } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { runCli } from '../../helpers/cli.ts';
import { PushLab, type Pushed } from './push-helpers.ts';

const keysOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as string) : []);

describe('Web Push to a device', () => {
  let lab: PushLab;
  before(async () => {
    lab = await PushLab.start();
  });
  after(() => lab.dispose());

  /** Types "perm" into the agent and returns the push of the blocked item that follows (an item newer than any pushed). */
  const blockedPush = async (pane: string): Promise<Pushed> => {
    const newest = Math.max(0, ...lab.pushed().map((push) => push.item ?? 0));
    await lab.call(PANE_SEND, { target: pane, text: 'perm', keys: ['Enter'] });
    return waitFor(() => lab.pushed().find((push) => push.kind === 'attention' && push.pane === pane && push.state === 'blocked' && push.item! > newest), { what: `the push of ${pane} blocked`, timeoutMs: 30_000 }) as Promise<Pushed>;
  };

  it('keeps its VAPID key pair 0600 in the state folder', () => {
    const path = vapidKeyPath(lab.daemon.socket, testEnv(lab.dir));
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('pushes a blocked agent once, with its question and the safe answers; a token answers once', async () => {
    const keylog = join(lab.dir, 'a.keys');
    const pane = await lab.agent('alpha', keylog);
    const push = await blockedPush(pane);
    const { items } = await lab.call(INBOX_LIST, {});
    const item = items.find((one) => one.pane.id === pane)!;
    assert.equal(push.kind, 'attention');
    assert.equal(push.tag, `corral-inbox-${item.id}`);
    assert.equal(push.state, 'blocked');
    assert.equal(push.pane, pane);
    assert.equal(push.url, `/#/agent/${encodeURIComponent(pane)}`);
    assert.match(push.body, /rm -rf \/tmp\/fake-agent-scratch/);
    assert.equal(push.promptId, item.prompt!.id);
    // Its safe choices (safeChoices in src/protocol/prompt.ts): allow once, then deny; never "don't ask again".
    assert.deepEqual(push.actions.map((action) => [action.action, action.title]), [['yes', 'Yes'], ['no-and-tell-claude-what-to-do', 'No, and tell Claude what to do differently']]);
    const request = lab.service.requests.at(-1)!;
    assert.equal(request.headers.ttl, '600');
    assert.equal(request.headers.urgency, 'high');
    assert.equal(request.headers.topic, `corral-inbox-${item.id}`);
    assert.ok(Buffer.byteLength(JSON.stringify(push)) < 3072);

    const [yes] = push.actions;
    const answered = await lab.call(PUSH_ANSWER, { token: yes!.token, choice: 'yes', pane });
    assert.deepEqual(answered, { outcome: 'answered', pane, promptId: push.promptId, choice: 'yes' });
    await waitFor(async () => (await lab.call(AGENT_GET, { target: pane })).state !== 'blocked', { what: 'the agent unblocked', timeoutMs: 30_000 });
    // The item, acknowledged by the answer, is pushed again quietly under its tag: it replaces the question.
    const resolved = (await waitFor(() => lab.pushed().find((one) => one.kind === 'resolved' && one.tag === push.tag), { what: 'the quiet replacement' }))!;
    assert.deepEqual([resolved.body, resolved.actions, lab.service.requests.find((r) => r.status === 201 && r.headers.topic === push.tag && r !== request)?.headers.urgency], ['answered', [], 'normal']);
    const typed = keysOf(keylog).length;
    const again = await lab.failure(PUSH_ANSWER, { token: yes!.token, choice: 'yes', pane });
    assert.equal(again.code, 'answer_token_refused');
    assert.equal(again.details.reason, 'used');
    const no = await lab.failure(PUSH_ANSWER, { token: push.actions[1]!.token, choice: push.actions[1]!.action, pane });
    assert.equal(no.details.reason, 'prompt_changed', 'the other button of the answered prompt');
    assert.equal(keysOf(keylog).length, typed, 'nothing typed by the refused taps');
  });

  it('refuses a forged token, a token for another choice or pane, and a token of a changed prompt, typing nothing', async () => {
    const aKeys = join(lab.dir, 'b.keys');
    const bKeys = join(lab.dir, 'c.keys');
    const a = await lab.agent('bravo', aKeys);
    const b = await lab.agent('charlie', bKeys);
    const pushA = await blockedPush(a);
    const pushB = await blockedPush(b);
    const [yesA] = pushA.actions;
    const typedA = keysOf(aKeys).length;
    const typedB = keysOf(bKeys).length;
    const refusal = async (params: { token: string; choice: string; pane?: string }) => (await lab.failure(PUSH_ANSWER, params)).details.reason;

    assert.equal(await refusal({ token: 'A'.repeat(43), choice: 'yes', pane: a }), 'expired', 'a forged token');
    assert.equal(await refusal({ token: yesA!.token, choice: 'yes', pane: b }), 'invalid', "a's token on b");
    assert.equal(await refusal({ token: yesA!.token, choice: 'no-and-tell-claude-what-to-do', pane: a }), 'invalid', 'the yes token for another choice');
    assert.equal(await refusal({ token: yesA!.token, choice: 'yes', pane: 'no-such-pane' }), 'invalid', 'a pane that is not there');
    assert.equal(keysOf(aKeys).length, typedA);
    assert.equal(keysOf(bKeys).length, typedB);

    // b is answered at its terminal: its prompt left, its buttons with it.
    await lab.call(PANE_SEND, { target: b, keys: ['2'] });
    await waitFor(async () => (await lab.call(AGENT_GET, { target: b })).state !== 'blocked', { what: 'b answered at the terminal', timeoutMs: 30_000 });
    const typedAfter = keysOf(bKeys).length;
    assert.equal(await refusal({ token: pushB.actions[0]!.token, choice: 'yes', pane: b }), 'prompt_changed');
    // Blocked again, on a new prompt: the old button still answers nothing.
    await blockedPush(b);
    assert.equal(await refusal({ token: pushB.actions[0]!.token, choice: 'yes', pane: b }), 'prompt_changed');
    assert.deepEqual(keysOf(bKeys).slice(typedAfter).filter((key) => /[12]/.test(key)), [], 'only the new "perm" was typed');
    assert.equal((await lab.call(AGENT_GET, { target: b })).state, 'blocked');
    assert.equal((await lab.call(AGENT_GET, { target: a })).state, 'blocked');
  });

  it('pushes nothing again for the same item after a daemon restart', async () => {
    const before = lab.pushed();
    const blocked = (await lab.call(INBOX_LIST, {})).items.filter((item) => item.state === 'blocked');
    assert.ok(blocked.length >= 1, 'an item still waits in the inbox');
    await killDaemon(lab.daemon);
    await lab.restart();
    await waitFor(async () => (await lab.call(AGENT_LIST, {})).agents.some((agent) => agent.state === 'blocked'), { what: 'the agents read again', timeoutMs: 60_000 });
    // The test push queues behind whatever the new daemon sent at start: once it arrives, that was all.
    const { results } = await lab.call(PUSH_TEST, { id: lab.deviceId });
    assert.equal(results[0]!.status, 201);
    const now = (await waitFor(() => (lab.pushed().length > before.length ? lab.pushed() : null), { what: 'the test push' }))!;
    assert.deepEqual(now.slice(before.length).map((push) => [push.kind, push.item]), [['test', null]], JSON.stringify(before.map((push) => [push.kind, push.item])));
  });

  it('answers every other call while a push service holds a push', async () => {
    const release = lab.service.stall();
    const held = lab.call(PUSH_TEST, { id: lab.deviceId });
    await waitFor(() => lab.service.held > 0, { what: 'the push held by the service' });
    assert.ok((await lab.call(AGENT_LIST, {})).agents.length > 0, 'the daemon answers meanwhile');
    assert.equal((await lab.call(PUSH_LIST, {})).devices.length, 1);
    release();
    assert.equal((await held).results[0]!.status, 201);
  });

  it('retries a push the service answers 429, and drops a device whose subscription is gone (410)', async () => {
    lab.service.answerNext(429);
    const retried = await lab.call(PUSH_TEST, { id: lab.deviceId });
    assert.equal(retried.results[0]!.status, 201);
    assert.deepEqual(lab.service.requests.slice(-2).map((request) => request.status), [429, 201]);

    lab.service.expire(lab.device);
    const gone = await lab.call(PUSH_TEST, {});
    assert.equal(gone.results[0]!.status, 410);
    assert.deepEqual((await lab.call(PUSH_LIST, {})).devices, []);
  });
});

describe('corral notify push', () => {
  it('subscribes a device from stdin, lists it, tests it and removes it', async () => {
    const lab = await PushLab.start();
    try {
      const second = await lab.service.subscribe((await lab.call(PUSH_KEY, {})).publicKey);
      const socket = ['--socket', lab.daemon.socket];
      const subscribed = await runCli([...socket, 'notify', 'push', 'subscribe', '-', '--states', 'blocked', '--label', 'tablet'], { input: JSON.stringify({ endpoint: second.endpoint, expirationTime: null, keys: second.keys }) });
      assert.equal(subscribed.code, 0, subscribed.stderr);
      const id = /^subscribed (d[0-9a-f]{10}) \(blocked\)/.exec(subscribed.stdout)?.[1];
      assert.ok(id, subscribed.stdout);
      const listed = await runCli([...socket, 'notify', 'push', 'list']);
      assert.match(listed.stdout, new RegExp(`^${id}\\s+tablet\\s+blocked\\s+all\\s+default\\s+0\\s+-\\s+http://127\\.0\\.0\\.1:\\d+/notify/`, 'm'));
      const tested = await runCli([...socket, 'notify', 'push', 'test', id!]);
      assert.match(tested.stdout, new RegExp(`^${id}\\s+201\\s+-$`, 'm'));
      assert.deepEqual((lab.service.messages(second) as Pushed[]).map((push) => push.kind), ['test']);
      const bad = await runCli([...socket, 'notify', 'push', 'subscribe', '-'], { input: '{"endpoint": "ftp://x", "keys": {}}' });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /invalid_params/);
      assert.equal((await runCli([...socket, 'notify', 'push', 'remove', id!])).stdout, `removed ${id}\n`);
      assert.equal((await lab.call(PUSH_LIST, {})).devices.length, 1);
    } finally {
      await lab.dispose();
    }
  });
});
