// An agent's pane that fails (a non-zero status) is an inbox item `failed`, pushed to the devices that
// receive it with its exit in the title; a clean exit is none, and a device receiving only blocked hears nothing of it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENTS_READ, INBOX_LIST, PANE_KILL, PANE_SEND, PUSH_KEY, PUSH_SUBSCRIBE } from '../../../src/protocol/methods/index.ts';
import { failureOf } from '../../../src/daemon/inbox/pane-failure.ts';
import type { TestSubscription } from '../../../harness/push-service.ts';
import { waitFor } from '../../../harness/wait.ts';
import { PushLab, type Pushed } from './push-helpers.ts';

describe('a failed agent', () => {
  let lab: PushLab;
  let blockedOnly: TestSubscription;
  before(async () => {
    lab = await PushLab.start();
    const { publicKey } = await lab.call(PUSH_KEY, {});
    blockedOnly = await lab.service.subscribe(publicKey);
    await lab.call(PUSH_SUBSCRIBE, { subscription: { endpoint: blockedOnly.endpoint, expirationTime: null, keys: blockedOnly.keys }, states: ['blocked'], label: 'blocked only' });
  });
  after(() => lab.dispose());

  const blockedOnlyGot = () => lab.service.messages(blockedOnly) as Pushed[];

  it('is an inbox item with its exit status, pushed once with it, to the devices that receive failed', async () => {
    const pane = await lab.agent('crash');
    await lab.call(PANE_SEND, { target: pane, text: 'exit 3', keys: ['Enter'] });
    const push = (await waitFor(() => lab.pushed().find((one) => one.pane === pane && one.state === 'failed'), { what: 'the push of the failed agent', timeoutMs: 30_000 }))!;
    const { items } = await lab.call(INBOX_LIST, {});
    const item = items.find((one) => one.pane.id === pane)!;
    assert.equal(item.state, 'failed');
    assert.deepEqual(item.exit, { code: 3, signal: null });
    assert.equal(item.agent, 'claude');
    assert.equal(item.message, 'claude failed (exit 3)');
    assert.equal(push.kind, 'attention');
    assert.equal(push.tag, `corral-inbox-${item.id}`);
    assert.match(push.title, /^claude in crash failed \(exit 3\) · \S/);
    assert.match(push.body, /^claude failed \(exit 3\) in workspace w1 on \S/);
    assert.deepEqual(push.actions, []);
    assert.equal(lab.pushed().filter((one) => one.item === item.id && one.kind === 'attention').length, 1);

    // The blocked-only device was told nothing: its first push is a later block, made after the failure was pushed.
    const blocker = await lab.agent('blocker');
    await lab.call(PANE_SEND, { target: blocker, text: 'perm', keys: ['Enter'] });
    await waitFor(() => blockedOnlyGot().find((one) => one.pane === blocker && one.state === 'blocked'), { what: 'the blocked push to the blocked-only device', timeoutMs: 30_000 });
    assert.deepEqual(blockedOnlyGot().filter((one) => one.kind === 'attention').map((one) => one.state), ['blocked']);

    // Removing the pane acknowledges its item.
    await lab.call(PANE_KILL, { target: pane });
    assert.equal((await lab.call(INBOX_LIST, {})).items.some((one) => one.pane.id === pane), false);
  });

  it('is no item when the agent exits with status 0', async () => {
    const pane = await lab.agent('clean');
    await lab.call(PANE_SEND, { target: pane, text: 'exit', keys: ['Enter'] });
    const exited = (await waitFor(async () => {
      const { events } = await lab.call(EVENTS_READ, { filter: 'kind:pane.exited' });
      return events.find((event) => event.pane?.id === pane);
    }, { what: 'the clean exit published', timeoutMs: 30_000 }))!;
    assert.deepEqual(exited.data, { exitCode: 0, signal: null });
    // The inbox takes each event as it is published: by now it has seen this one.
    assert.equal((await lab.call(INBOX_LIST, {})).items.some((one) => one.pane.id === pane), false);
  });

  it('is no item when Corral ends the agent itself (pane.kill: its SIGHUP makes it exit 129)', async () => {
    const pane = await lab.agent('killed');
    await lab.call(PANE_KILL, { target: pane });
    const { events } = await lab.call(EVENTS_READ, { filter: 'kind:pane.exited,pane.removed,inbox.added' });
    const mine = events.filter((event) => event.pane?.id === pane);
    // The kill answers after the removal, and an item would enter as the exit is published, before it.
    assert.deepEqual(mine.map((event) => event.kind), ['pane.exited', 'pane.removed']);
    assert.notDeepEqual(mine[0]!.data, { exitCode: 0, signal: null }, 'the kill is not a clean exit, so only the removal keeps it from being an item');
  });
});

describe('failureOf', () => {
  it('names a signal, keeps a non-zero status, and finds no failure in status 0 or an exit that tells nothing', () => {
    assert.deepEqual(failureOf(null, 9), { code: null, signal: 'SIGKILL' });
    assert.deepEqual(failureOf(0, 15), { code: null, signal: 'SIGTERM' });
    assert.deepEqual(failureOf(3, null), { code: 3, signal: null });
    assert.equal(failureOf(0, null), null);
    assert.equal(failureOf(0, 0), null);
    assert.equal(failureOf(null, null), null);
  });

  it('finds no failure in an interrupt: someone stopped the agent', () => {
    assert.equal(failureOf(null, 2), null);
    assert.equal(failureOf(130, null), null);
  });
});
