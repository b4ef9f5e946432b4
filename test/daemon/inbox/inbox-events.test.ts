// The attention inbox tells the event stream what enters and leaves it, so that top, corral web and
// notifications agree without polling (docs/events.md, "The attention inbox").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('inbox events', () => {
  const session = useDaemon();

  const read = async (since: number, pane: string): Promise<any[]> => (await session.call('events.read', { since, filter: `pane:${pane} kind:inbox.*,agent.attention` })).events;

  it('announces an item right after its agent.attention, with the prompt, and its acknowledgement by inbox.ack', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'inboxed' });
    const since = (await session.call('events.cursor', {})).cursor;
    await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
    let events: any[] = [];
    await waitFor(async () => (events = await read(since, agent)).some((e) => e.kind === 'inbox.added'), { what: 'inbox.added', timeoutMs: 15_000 });
    assert.deepEqual(events.map((e) => e.kind), ['agent.attention', 'inbox.added']);
    const [attention, added] = events;
    assert.equal(added.cursor, attention.cursor + 1, 'right after its attention event');
    assert.equal(added.data.item.state, 'blocked');
    assert.equal(added.data.item.cursor, attention.cursor);
    assert.deepEqual(added.data.item.prompt, attention.data.prompt, 'the item holds the prompt the attention event carried');
    assert.deepEqual((await session.call('inbox.list', {})).items, [added.data.item]);
    await session.call('inbox.ack', { ids: [added.data.item.id] });
    const acked = (await read(added.cursor, agent)).filter((e) => e.kind === 'inbox.acknowledged');
    assert.deepEqual(acked.map((e) => e.data), [{ ids: [added.data.item.id] }]);
    assert.equal(acked[0].pane.id, agent);
  });

  it('announces the acknowledgement that focusing the pane makes, once', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'focused' });
    const since = (await session.call('events.cursor', {})).cursor;
    await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
    let item: any;
    await waitFor(async () => (item = (await read(since, agent)).find((e) => e.kind === 'inbox.added')?.data.item) !== undefined, { what: 'inbox.added', timeoutMs: 15_000 });
    await session.call('agent.focus', { target: agent });
    await session.call('agent.focus', { target: agent });
    const acked = (await read(since, agent)).filter((e) => e.kind === 'inbox.acknowledged');
    assert.deepEqual(acked.map((e) => e.data.ids), [[item.id]], 'one acknowledgement, none for the second focus');
    assert.deepEqual((await session.call('inbox.list', {})).items.filter((other: any) => other.pane.id === agent), []);
  });
});
