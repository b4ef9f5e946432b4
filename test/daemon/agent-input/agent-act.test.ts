import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { existsSync } from 'node:fs';
import { MAX_PENDING_INPUT_BYTES } from '../../../src/daemon/panes/input-room.ts';
import { MAX_METADATA_SOURCES } from '../../../src/daemon/metadata/metadata-store.ts';
import { RawClient } from '../../../harness/raw-client.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

const FAKE = fileURLToPath(new URL('../../fixtures/agents/fake-claude.mjs', import.meta.url));
const REPORT_PROXY = fileURLToPath(new URL('../../fixtures/report-proxy.mjs', import.meta.url));

describe('prompt, answer, the steering queue and display metadata through the daemon and the fake agent', () => {
  const session = useDaemon();
  const { call, callError, agentUntil } = session;
  const fakeAgent = (workMs: number) => session.fakeAgent(workMs);

  const screen = async (target: string): Promise<string> => (await call('pane.read', { target })).text;
  const isIdle = (i: any) => i.state === 'idle' || i.state === 'done';

  it('delivers a prompt with bracketed paste and Enter; the agent works, then idles', async () => {
    const id = await fakeAgent(300);
    const before = (await call('agent.get', { target: id })).revision;
    const result = await call('agent.prompt', { target: id, text: 'write a poem\x1b[201~ please' });
    assert.equal(result.delivered, true);
    assert.equal(typeof result.seq, 'number');
    await agentUntil(id, (i) => i.state === 'working', 'working');
    await agentUntil(id, isIdle, 'idle after the work');
    const text = await screen(id);
    assert.match(text, /> write a poem please/, 'the paste-end mark inside the text was dropped, the rest arrived as one paste');
    assert.match(text, /Task complete\./);
    assert.ok((await call('agent.get', { target: id })).revision > before);
    await call('pane.kill', { target: id });
  });

  it('types without submitting when submit is false', async () => {
    const id = await fakeAgent(300);
    assert.equal((await call('agent.prompt', { target: id, text: 'draft', submit: false })).delivered, true);
    await waitFor(async () => (await screen(id)).includes('❯ draft'), { what: 'the typed draft in the prompt box' });
    assert.equal((await call('agent.get', { target: id })).rawState, 'idle');
    await call('pane.kill', { target: id });
  });

  it('refuses to prompt a blocked agent, answers it, and refuses to answer an agent that is not blocked', async () => {
    const id = await fakeAgent(300);
    await call('agent.prompt', { target: id, text: 'perm' });
    await agentUntil(id, (i) => i.state === 'blocked', 'the permission form');
    const refused = await callError('agent.prompt', { target: id, text: 'hello' });
    assert.equal(refused.data.code, 'agent_blocked');
    assert.match(refused.message, /corral agent answer/);
    const queuedRefused = await callError('agent.prompt', { target: id, text: 'hello', queue: true });
    assert.equal(queuedRefused.data.code, 'agent_blocked');
    const answered = await call('agent.answer', { target: id, choice: 1 });
    assert.notEqual(answered.state, 'blocked');
    assert.ok(answered.elapsedMs >= 0 && answered.elapsedMs < 5000, String(answered.elapsedMs));
    assert.equal((await call('agent.get', { target: id })).state === 'blocked', false);
    await agentUntil(id, isIdle, 'idle after the approved command');
    assert.match(await screen(id), /Command ran\./);
    const notBlocked = await callError('agent.answer', { target: id, choice: 1 });
    assert.equal(notBlocked.data.code, 'agent_not_blocked');
    await call('pane.kill', { target: id });
  });

  it('accepts a prompt once the screen has left blocked, though the debounce still holds the state', async () => {
    const id = await fakeAgent(300);
    await call('agent.prompt', { target: id, text: 'perm' });
    await agentUntil(id, (i) => i.state === 'blocked', 'the permission form');
    await call('pane.send', { target: id, text: '2' }); // declined by plain input, not through agent.answer
    await session.screenContains(id, 'Declined.');
    const result = await call('agent.prompt', { target: id, text: 'next task' });
    assert.equal(result.delivered, true);
    await session.screenContains(id, '> next task');
    await call('pane.kill', { target: id });
  });

  it('answers a question form with named keys', async () => {
    const id = await fakeAgent(200);
    await call('agent.prompt', { target: id, text: 'perm' });
    await agentUntil(id, (i) => i.state === 'blocked', 'the permission form');
    const answered = await call('agent.answer', { target: id, keys: ['Escape'] });
    assert.notEqual(answered.state, 'blocked');
    assert.match(await screen(id), /Declined\./);
    const bad = await callError('agent.answer', { target: id, choice: 1, keys: ['Enter'] });
    assert.equal(bad.data.code, 'invalid_params');
    await call('pane.kill', { target: id });
  });

  it('ends an answer the agent ignores with timeout, and refuses a number the prompt does not offer at once', async () => {
    const id = await fakeAgent(200);
    await call('agent.prompt', { target: id, text: 'perm' });
    await agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.choices.length > 0, 'the permission form');
    const unoffered = await callError('agent.answer', { target: id, choice: 7 });
    assert.equal(unoffered.data.code, 'choice_not_offered');
    assert.match(unoffered.message, /offers no choice 7; its choices: yes \[1\], no-and-tell-claude-what-to-do \[Escape\]/);
    assert.ok(unoffered.data.choices.includes('yes'));
    const late = await callError('agent.answer', { target: id, keys: ['3'], timeoutMs: 300 });
    assert.equal(late.data.code, 'timeout');
    assert.equal((await call('agent.get', { target: id })).state, 'blocked');
    await call('pane.kill', { target: id });
  });

  it('refuses agent acts on a pane without an agent', async () => {
    const pane = await call('pane.spawn', { command: 'sh', args: [], cwd: session.daemon.dir });
    assert.equal((await callError('agent.prompt', { target: pane.id, text: 'ls' })).data.code, 'agent_not_found');
    assert.equal((await callError('agent.answer', { target: pane.id, choice: 1 })).data.code, 'agent_not_found');
    await call('pane.kill', { target: pane.id });
  });

  it('queues prompts while the agent works and delivers one per idle, counting 2, 1, 0', async () => {
    const id = await fakeAgent(700);
    await call('agent.prompt', { target: id, text: 'first' });
    await agentUntil(id, (i) => i.state === 'working', 'working on the first prompt');
    assert.deepEqual(await call('agent.prompt', { target: id, text: 'second', queue: true }), { queued: true, position: 1 });
    assert.deepEqual(await call('agent.prompt', { target: id, text: 'third', queue: true }), { queued: true, position: 2 });
    assert.equal((await call('agent.get', { target: id })).queued, 2);
    const listed = await call('agent.queue', { target: id });
    assert.equal(listed.queued, 2);
    assert.deepEqual(listed.prompts.map((p: any) => p.text), ['second', 'third']);
    assert.ok(listed.prompts.every((p: any) => typeof p.queuedAt === 'number' && p.submit === true));
    const counts: number[] = [2];
    await waitFor(
      async () => {
        const info = await call('agent.get', { target: id });
        if (info.queued !== counts.at(-1)) counts.push(info.queued);
        return info.queued === 0 && isIdle(info) && (await screen(id)).match(/Task complete\./g)?.length === 3;
      },
      { what: 'both queued prompts delivered and done', timeoutMs: 10000 },
    );
    assert.deepEqual(counts, [2, 1, 0]);
    const text = await screen(id);
    assert.ok(text.indexOf('> first') < text.indexOf('> second') && text.indexOf('> second') < text.indexOf('> third'), text);
    await call('pane.kill', { target: id });
  });

  it('delivers a queued prompt at once to an idle agent with an empty queue', async () => {
    const id = await fakeAgent(200);
    assert.equal((await call('agent.prompt', { target: id, text: 'now', queue: true })).delivered, true);
    await agentUntil(id, (i) => i.state === 'working', 'working');
    await call('pane.kill', { target: id });
  });

  for (const cancel of [{ keys: ['Escape'] }, { keys: ['C-c'] }, { text: '\x03' }]) {
    it(`clears the queue when ${JSON.stringify(cancel)} is sent through pane.send`, async () => {
      // A turn longer than the test: a short one could end between the two queued prompts on a slow machine.
      const id = await fakeAgent(600_000);
      await call('agent.prompt', { target: id, text: 'long job' });
      await agentUntil(id, (i) => i.state === 'working', 'working');
      await call('agent.prompt', { target: id, text: 'later one', queue: true });
      await call('agent.prompt', { target: id, text: 'later two', queue: true });
      assert.equal((await call('agent.get', { target: id })).queued, 2);
      await call('pane.send', { target: id, ...cancel });
      assert.equal((await call('agent.get', { target: id })).queued, 0);
      assert.deepEqual((await call('agent.queue', { target: id })).prompts, []);
      await call('pane.send', { target: id, keys: ['Escape'] }); // ends the turn where the cancel did not (one C-c)
      await agentUntil(id, isIdle, 'idle after the cancel');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.doesNotMatch(await screen(id), /later/, 'nothing queued was delivered');
      await call('pane.kill', { target: id });
    });
  }

  it('clears the queue on agent.clearQueue and when the agent exits', async () => {
    const id = await fakeAgent(3000);
    await call('agent.prompt', { target: id, text: 'long job' });
    await agentUntil(id, (i) => i.state === 'working', 'working');
    await call('agent.prompt', { target: id, text: 'a', queue: true });
    assert.deepEqual(await call('agent.clearQueue', { target: id }), { cleared: 1 });
    assert.equal((await call('agent.get', { target: id })).queued, 0);
    await call('agent.prompt', { target: id, text: 'b', queue: true });
    await call('agent.prompt', { target: id, text: 'c', queue: true });
    assert.equal((await call('agent.get', { target: id })).queued, 2);
    process.kill((await call('pane.get', { target: id })).pid, 'SIGTERM');
    const info = await agentUntil(id, (i) => i.paneState === 'exited', 'the pane exited');
    assert.equal(info.queued, 0);
    assert.deepEqual((await call('agent.queue', { target: id })).prompts, []);
    await call('pane.kill', { target: id });
  });

  /** The fake Claude in a pane with a relay beside it: what the relay's client sends comes from inside the pane. */
  async function agentWithRelay(): Promise<{ id: string; inside: RawClient }> {
    const relay = join(session.daemon.dir, `relay-${Math.random().toString(36).slice(2)}.sock`);
    const script = `${JSON.stringify(process.execPath)} ${JSON.stringify(REPORT_PROXY)} ${JSON.stringify(relay)} >/dev/null & exec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE)}`;
    const pane = await call('pane.spawn', { command: 'sh', args: ['-c', script], cwd: session.daemon.dir, env: { CORRAL_AGENT: 'claude' } });
    await waitFor(async () => (await call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'idle' });
    await waitFor(() => existsSync(relay), { what: 'the relay to listen' });
    return { id: pane.id, inside: await RawClient.connect(relay) };
  }

  it('shows metadata in agent.get, merges sources, never changes the state, and expires after the TTL', async () => {
    const { id, inside } = await agentWithRelay();
    const pane = { id };
    let nextId = 1;
    const report = async (params: object) => {
      const reply = await inside.call(nextId++, 'pane.reportMetadata', params);
      assert.equal(reply.error, undefined, JSON.stringify(reply.error));
      return reply.result;
    };
    const before = await call('agent.get', { target: pane.id });
    assert.equal(before.metadata, null);
    const reported = await report({ target: pane.id, source: 'user:batch', title: 'Chapter 1-12', displayAgent: 'Claude: docs', tokens: 1200, ttlMs: 400 });
    assert.equal(reported.metadata.title, 'Chapter 1-12');
    await report({ target: pane.id, source: 'user:label', stateLabel: 'reviewing', title: 'Review', ttlMs: 5000 });
    const shown = await call('agent.get', { target: pane.id });
    assert.equal(shown.metadata.title, 'Review', 'the latest report wins a field');
    assert.equal(shown.metadata.displayAgent, 'Claude: docs');
    assert.equal(shown.metadata.tokens, 1200);
    assert.equal(shown.metadata.stateLabel, 'reviewing');
    assert.deepEqual(Object.keys(shown.metadata.sources).sort(), ['user:batch', 'user:label']);
    assert.deepEqual([shown.state, shown.revision, shown.rule, shown.source], [before.state, before.revision, before.rule, before.source]);
    await waitFor(async () => (await call('agent.get', { target: pane.id })).metadata?.displayAgent === undefined, { what: 'the short TTL to expire', timeoutMs: 3000 });
    const later = await call('agent.get', { target: pane.id });
    assert.equal(later.metadata.title, 'Review');
    assert.deepEqual(Object.keys(later.metadata.sources), ['user:label']);
    assert.equal(later.revision, before.revision);
    await report({ target: pane.id, source: 'user:label' });
    assert.equal((await call('agent.get', { target: pane.id })).metadata, null, 'a report without fields removes its source');
    inside.close();
    await call('pane.kill', { target: pane.id });
  });

  it(`holds an agent's unread input to ${MAX_PENDING_INPUT_BYTES} bytes for pipelined prompts, typed now or queued`, async () => {
    const id = await fakeAgent(60_000);
    const { pid } = await call('pane.get', { target: id });
    const text = `${'x'.repeat(1023)}\r`.repeat(512); // 512 KiB of whole lines
    const pipelined = async (params: object): Promise<{ accepted: number; refused: any }> => {
      const count = (MAX_PENDING_INPUT_BYTES >> 19) + 4;
      for (let i = 0; i < count; i++) session.client.request(5000 + i, 'agent.prompt', params);
      let accepted = 0;
      let refused: any = null;
      for (let i = 0; i < count; i++) {
        const reply = await session.client.next(60_000);
        if (reply.error) refused ??= reply.error;
        else accepted += 1;
      }
      return { accepted, refused };
    };
    // An agent that reads nothing: every prompt typed into it waits in the pty host.
    process.kill(pid, 'SIGSTOP');
    try {
      const typed = await pipelined({ target: id, text, submit: false });
      assert.equal(typed.refused?.data?.code, 'pane_input_full');
      assert.ok(typed.accepted * text.length <= MAX_PENDING_INPUT_BYTES, `${typed.accepted} prompts of ${text.length} bytes taken`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await call('pane.kill', { target: id });
    // An agent at work: queued prompts wait in the daemon, and count the same.
    const busy = await fakeAgent(60_000);
    await call('agent.prompt', { target: busy, text: 'long job' });
    await agentUntil(busy, (i) => i.state === 'working', 'working');
    const queued = await pipelined({ target: busy, text, queue: true });
    assert.equal(queued.refused?.data?.code, 'pane_input_full');
    assert.ok(queued.accepted * text.length <= MAX_PENDING_INPUT_BYTES, `${queued.accepted} prompts of ${text.length} bytes queued`);
    assert.equal((await call('agent.get', { target: busy })).queued, queued.accepted);
    await call('pane.kill', { target: busy });
  });

  it('refuses metadata from a process outside the pane with not_in_pane, and keeps nothing of it', async () => {
    const id = await fakeAgent(300);
    const error = await callError('pane.reportMetadata', { target: id, source: 'outsider', title: 'spoofed' });
    assert.equal(error.data.code, 'not_in_pane');
    assert.equal((await call('agent.get', { target: id })).metadata, null);
    await call('pane.kill', { target: id });
  });

  it(`keeps ${MAX_METADATA_SOURCES} sources per pane: a new one replaces the one that reported least recently`, async () => {
    const { id, inside } = await agentWithRelay();
    const total = MAX_METADATA_SOURCES + 8;
    for (let i = 0; i < total; i++) inside.request(i + 1, 'pane.reportMetadata', { target: id, source: `s${i}`, title: 't'.repeat(256) });
    for (let i = 0; i < total; i++) assert.equal((await inside.next()).error, undefined);
    const { metadata } = await call('agent.get', { target: id });
    const expected = Array.from({ length: MAX_METADATA_SOURCES }, (_, i) => `s${i + total - MAX_METADATA_SOURCES}`);
    assert.deepEqual(Object.keys(metadata.sources), expected);
    inside.close();
    await call('pane.kill', { target: id });
  });
});
