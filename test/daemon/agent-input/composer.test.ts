import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

/**
 * Issue 39, "the composer": a draft in the agent's input box, through a real daemon and the fake agent
 * on a real PTY. Qwen Code puts a cancelled prompt back in its box after an Esc, and a prompt typed
 * after it was submitted glued to it.
 */
describe('the composer: a draft in the input box is shown, and a prompt never glues itself to it', () => {
  const session = useDaemon();
  const { call, callError, agentUntil } = session;
  const screen = async (target: string): Promise<string> => (await call('pane.read', { target })).text;
  const composer = async (target: string): Promise<string | undefined> => (await call('agent.get', { target })).composer;
  const isIdle = (i: any) => i.state === 'idle' || i.state === 'done';

  /** The fake agent with `draft` typed in its box and not sent. */
  const withDraft = async (draft: string) => {
    const id = await session.fakeAgent(150);
    assert.equal(await composer(id), '', 'an empty box reads empty');
    await call('agent.prompt', { target: id, text: draft, submit: false });
    await waitFor(async () => (await composer(id)) === draft, { what: `the draft "${draft}" in agent.get` });
    return id;
  };

  it('refuses a prompt after a draft, with the draft, and types nothing', async () => {
    const id = await withDraft('half a thought');
    const refused = await callError('agent.prompt', { target: id, text: 'a new prompt' });
    assert.equal(refused.data.code, 'composer_not_empty');
    assert.equal(refused.data.draft, 'half a thought');
    assert.match(refused.message, /--replace.*--append/);
    assert.equal(await composer(id), 'half a thought', 'nothing was typed');
    assert.doesNotMatch(await screen(id), /a new prompt/);
    await call('pane.kill', { target: id });
  });

  it('replaces the draft: its clear keys empty the box, then the prompt is typed and submitted', async () => {
    const id = await withDraft('half a thought');
    const result = await call('agent.prompt', { target: id, text: 'a new prompt', composer: 'replace' });
    assert.equal(result.delivered, true);
    await session.screenContains(id, 'Task complete.');
    await agentUntil(id, isIdle, 'idle after the turn');
    const text = await screen(id);
    assert.match(text, /^> a new prompt$/m);
    assert.doesNotMatch(text, /half a thought/);
    await call('pane.kill', { target: id });
  });

  it('appends to the draft, with a space between', async () => {
    const id = await withDraft('half a thought');
    await call('agent.prompt', { target: id, text: 'and the rest', composer: 'append' });
    await session.screenContains(id, '> half a thought and the rest');
    await call('pane.kill', { target: id });
  });

  it('shows the prompt an Esc put back, and the next prompt does not glue itself to it', async () => {
    const id = await session.fakeAgent(60_000, { env: { FAKE_RESTORE_ON_ESC: '1' } });
    await call('agent.prompt', { target: id, text: 'explain the restart' });
    await agentUntil(id, (i) => i.state === 'working', 'working');
    await call('pane.send', { target: id, keys: ['Escape'] });
    await agentUntil(id, isIdle, 'idle after the Esc');
    await waitFor(async () => (await composer(id)) === 'explain the restart', { what: 'the cancelled prompt back in the box' });
    const refused = await callError('agent.prompt', { target: id, text: 'Please answer slowly' });
    assert.equal(refused.data.code, 'composer_not_empty');
    assert.equal(refused.data.draft, 'explain the restart');
    assert.doesNotMatch(await screen(id), /restartPlease/);
    await call('pane.kill', { target: id });
  });

  it('a queued prompt waits while a draft is in the box, and is typed once the box is empty', async () => {
    const release = join(session.daemon.dir, 'release-composer');
    const id = await session.fakeAgent(150, { env: { FAKE_TYPE_AHEAD: '1', FAKE_RELEASE: release } });
    await call('agent.prompt', { target: id, text: 'hold' });
    await agentUntil(id, (i) => i.state === 'working', 'working');
    assert.deepEqual(await call('agent.prompt', { target: id, text: 'next step' }), { queued: true, position: 1 });
    await call('pane.send', { target: id, text: 'typed ahead' }); // a person types while the agent works
    writeFileSync(release, '');
    await agentUntil(id, isIdle, 'idle after the held turn');
    await waitFor(async () => (await composer(id)) === 'typed ahead', { what: 'the typed-ahead draft in the box' });
    assert.equal((await call('agent.queue', { target: id })).queued, 1, 'the queued prompt waits for the draft to go');
    await call('pane.send', { target: id, keys: Array('typed ahead'.length).fill('BSpace') });
    await waitFor(async () => (await call('agent.queue', { target: id })).queued === 0 && /^> next step$/m.test(await screen(id)), {
      what: 'the queued prompt typed once the box emptied',
    });
    assert.doesNotMatch(await screen(id), /typed ahead ?next step/);
    await call('pane.kill', { target: id });
  });
});
