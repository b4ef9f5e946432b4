// The web server's board on a real daemon: an item entering the inbox is told to pages once, and
// not again for the same pane and state within the cooldown (src/web/board.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect, type CorralClient } from '../../src/client/index.ts';
import { Board, NOTIFY_COOLDOWN_MS, type BoardChange } from '../../src/web/board.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

describe('the web board and the attention inbox', () => {
  const session = useDaemon();
  let client: CorralClient;
  let board: Board;
  let now = 1_000_000;
  const changes: BoardChange[] = [];

  before(async () => {
    client = await connect({ socket: session.daemon.socket });
    board = new Board(client, { now: () => now });
    board.onChange((change) => changes.push(change));
    await board.start();
  });

  after(() => {
    board?.close();
    client?.close();
  });

  /** The blocked items pages were told of (a declined one may go done, which has a cooldown of its own). */
  const attentions = () => changes.flatMap((change) => (change.kind === 'attention' && change.item.state === 'blocked' ? [change.item.id] : []));
  const blockAgain = async (agent: string) => {
    await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
    let item: any;
    await waitFor(async () => (item = (await session.call('inbox.list', {})).items.find((entry: any) => entry.pane.id === agent && entry.state === 'blocked')) !== undefined, { what: 'the blocked item', timeoutMs: 15_000 });
    await waitFor(() => board.list().find((card) => card.info.id === agent)?.inbox?.id === item.id, { what: 'the card carrying the item', timeoutMs: 10_000 });
    return item;
  };
  const decline = async (agent: string) => {
    await session.call('pane.send', { target: agent, keys: ['Escape'] });
    await session.agentUntil(agent, (info) => info.state !== 'blocked', 'declined', 15_000);
  };

  it('tells pages of an item once; a second of the same pane and state within the cooldown is kept, not told', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'cooled' });
    const first = await blockAgain(agent);
    assert.deepEqual(attentions(), [first.id]);
    await decline(agent);
    now += NOTIFY_COOLDOWN_MS - 1;
    const second = await blockAgain(agent);
    assert.ok(second.id > first.id);
    assert.deepEqual(attentions(), [first.id], 'within the cooldown: the card shows it, no notification');
    await decline(agent);
    now += NOTIFY_COOLDOWN_MS;
    const third = await blockAgain(agent);
    assert.deepEqual(attentions(), [first.id, third.id], 'past the cooldown: told again');
  });
});
