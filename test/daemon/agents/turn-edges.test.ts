import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useDaemon } from '../../helpers/session.ts';

/**
 * Issue 39, "attention only when it is true", through a real daemon and the fake agent on a real PTY
 * that reports its turns as hooks do: a frame with no cue as a turn starts, and a late hook after an
 * Esc, each once gave a turn a false or a second done.
 */
describe('a turn gets one done, and none as it starts', () => {
  const session = useDaemon();
  const { call, agentUntil } = session;
  const hooked = () => session.fakeAgent(200, { env: { FAKE_HOOKS: '1' } });

  /** The pane's published changes and attention events since `cursor`, as `kind to`. */
  const published = async (pane: string, cursor: number): Promise<string[]> => {
    const { events } = await call('events.read', { since: cursor });
    return events
      .filter((e: any) => e.pane?.id === pane && (e.kind === 'agent.stateChanged' || e.kind === 'agent.attention'))
      .map((e: any) => `${e.kind === 'agent.attention' ? 'attention' : 'changed'} ${e.kind === 'agent.attention' ? e.data.state : e.data.to}`);
  };

  it('the last turn\'s Stop is not published as done in a frame with no cue as the next turn starts', async () => {
    const id = await hooked();
    await call('agent.prompt', { target: id, text: 'first' });
    await agentUntil(id, (i) => i.state === 'done' && i.source === 'screen:prompt_box', 'the first turn done');
    await call('pane.focus', { target: id });
    await agentUntil(id, (i) => i.state === 'idle', 'the done seen');
    const { cursor } = await call('events.cursor', {});
    await call('agent.prompt', { target: id, text: 'halfdrawn' });
    await session.screenContains(id, 'Turn after a cueless frame complete.');
    await agentUntil(id, (i) => i.state === 'done', 'the second turn done');
    assert.deepEqual(await published(id, cursor), ['changed working', 'changed done', 'attention done']);
    await call('pane.kill', { target: id });
  });

  it('a late hook after an Esc does not give the turn a second done', async () => {
    const lateHook = join(session.daemon.dir, 'late-hook');
    const id = await session.fakeAgent(200, { env: { FAKE_HOOKS: '1', FAKE_LATE_HOOK: lateHook } });
    const { cursor } = await call('events.cursor', {});
    await call('agent.prompt', { target: id, text: 'late' });
    await agentUntil(id, (i) => i.state === 'working', 'the turn working');
    await call('pane.send', { target: id, keys: ['Escape'] });
    await agentUntil(id, (i) => i.state === 'done', 'done after the Esc');
    writeFileSync(lateHook, '');
    // The fake agent draws this once the daemon answered its late hook and the frame with no cue is past.
    await session.screenContains(id, 'Late hook sent.');
    await agentUntil(id, (i) => i.state === 'done' && i.source === 'screen:prompt_box', 'done on the idle screen again');
    assert.deepEqual(await published(id, cursor), ['changed working', 'changed done', 'attention done']);
    await call('pane.kill', { target: id });
  });
});
