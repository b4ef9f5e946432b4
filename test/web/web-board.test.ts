// The web server's board on a real daemon: an item entering the inbox is told to pages once, and
// not again for the same pane and state within the cooldown; working agents' tails are read again
// only for the cards pages show (src/web/board.ts).
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe("the web board's tails follow what pages show", () => {
  const session = useDaemon();
  let client: CorralClient;
  let board: Board;
  const changes: BoardChange[] = [];

  before(async () => {
    client = await connect({ socket: session.daemon.socket });
    board = new Board(client);
    board.onChange((change) => changes.push(change));
    await board.start();
  });

  after(() => {
    board?.close();
    client?.close();
  });

  /** An agent that works until the daemon stops: its turn is held (the fake's "hold"), its release never comes. */
  const working = async (name: string) => {
    const agent = await session.fakeAgent(60_000, { name, env: { FAKE_RELEASE: join(session.daemon.dir, `${name}-never-released`) } });
    await session.call('pane.send', { target: agent, text: 'hold', keys: ['Enter'] });
    await waitFor(() => board.list().find((card) => card.info.id === agent)?.info.state === 'working', { what: `${name} working on the board`, timeoutMs: 15_000 });
    return agent;
  };
  /** The pane ids of each tails round told after the change at `from`. */
  const roundsAfter = (from: number) => changes.slice(from).flatMap((change) => (change.kind === 'tails' ? [change.cards.map((card) => card.info.id)] : []));

  it('reads again only the tails of cards some page shows, and a card shown anew at once', async () => {
    const shown = await working('shown');
    const hidden = await working('hidden');
    const viewer = {};
    board.watch(viewer, [shown]);
    const from = changes.length;
    await waitFor(() => roundsAfter(from).filter((ids) => ids.includes(shown)).length >= 2, { what: "two rounds with the shown card's tail", timeoutMs: 15_000 });
    assert.ok(roundsAfter(from).every((ids) => !ids.includes(hidden)), `no page shows ${hidden}: ${JSON.stringify(roundsAfter(from))}`);
    // Scrolled: the other card is on screen now, the first one not.
    board.watch(viewer, [hidden]);
    const next = changes.length;
    await waitFor(() => roundsAfter(next).filter((ids) => ids.includes(hidden)).length >= 3, { what: "rounds with the newly shown card's tail", timeoutMs: 15_000 });
    // A round under way at the scroll may still hold the first card; none after the newly shown card's first.
    const rounds = roundsAfter(next);
    const first = rounds.findIndex((ids) => ids.includes(hidden));
    assert.ok(rounds.slice(first + 1).every((ids) => !ids.includes(shown)), `${shown} left the screen: ${JSON.stringify(rounds)}`);
    board.unwatch(viewer);
  });

  it('reads nothing while no page shows a card: its agent comes whole from the event', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'unseen' });
    await waitFor(() => board.list().some((card) => card.info.id === agent), { what: 'the card', timeoutMs: 15_000 });
    // Every call the board makes goes through its client: counted, not replaced.
    const calls: string[] = [];
    const call = client.call.bind(client);
    client.call = ((method: string, ...args: unknown[]) => (calls.push(method), (call as any)(method, ...args))) as typeof client.call;
    try {
      await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
      await waitFor(() => board.list().find((card) => card.info.id === agent)?.info.state === 'blocked', { what: 'the card blocked', timeoutMs: 15_000 });
      const read = await session.call('agent.get', { target: agent });
      const card = board.list().find((c) => c.info.id === agent)!;
      assert.equal(card.info.revision, read.revision);
      assert.deepEqual(card.info.prompt, read.prompt);
      assert.deepEqual(calls, [], 'a state change with no page open costs the daemon no call');
    } finally {
      client.call = call;
    }
  });

  it("tells a new state at once (from its event), with the prompt a blocked card shows and the daemon's revision, then its tail", async () => {
    const agent = await session.fakeAgent(60_000, { name: 'asking' });
    const viewer = {};
    board.watch(viewer, null); // a page that shows every card
    const from = changes.length;
    await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
    const blockedCard = () => changes.slice(from).find((change) => change.kind === 'card' && change.card.info.id === agent && change.card.info.state === 'blocked');
    await waitFor(() => blockedCard() !== undefined, { what: 'the card told blocked', timeoutMs: 15_000 });
    const told = (blockedCard() as { card: { info: { revision: number; prompt?: { text: string } } } }).card.info;
    assert.match(told.prompt?.text ?? '', /rm -rf \/tmp\/fake-agent-scratch/);
    const read = await session.call('agent.get', { target: agent });
    assert.equal(read.state, 'blocked');
    assert.equal(read.revision, told.revision);
    const tail = () => board.list().find((card) => card.info.id === agent)?.tail.join('\n') ?? '';
    await waitFor(() => /Esc to cancel/.test(tail()), { what: "the dialog in the card's tail", timeoutMs: 10_000 });
    board.unwatch(viewer);
  });

  it("follows a blocked card's dialog as it is drawn further and redrawn, while the agent's state and revision stay", async () => {
    // The form reaches the screen without its footer first (the fake's FAKE_DIALOG_REST), as output split
    // across reads leaves it: the agent is blocked on it, and its tail read, before it is whole. With no
    // description line, the command is among the tail's lines.
    const rest = join(session.daemon.dir, 'growing-dialog-rest');
    const agent = await session.fakeAgent(60_000, { name: 'growing', env: { FAKE_DIALOG_REST: rest, FAKE_NO_DESCRIPTION: '1' } });
    const viewer = {};
    board.watch(viewer, [agent]);
    await session.call('pane.send', { target: agent, text: 'perm', keys: ['Enter'] });
    const card = () => board.list().find((c) => c.info.id === agent)!;
    const tail = () => card().tail.join('\n');
    await waitFor(() => card().info.state === 'blocked' && /1\. Yes/.test(tail()), { what: 'the tail of the form without its footer', timeoutMs: 15_000 });
    const revision = card().info.revision;
    assert.doesNotMatch(tail(), /Esc to cancel/);
    writeFileSync(rest, '');
    await waitFor(() => /Esc to cancel/.test(tail()), { what: "the whole form in the card's tail", timeoutMs: 15_000 });
    // Explained (ctrl+e): another dialog on the same block, drawn without its footer again.
    rmSync(rest);
    await session.call('pane.send', { target: agent, keys: ['C-e'] });
    await waitFor(() => /# removes the scratch folder/.test(tail()), { what: "the redrawn form in the card's tail", timeoutMs: 15_000 });
    assert.deepEqual([card().info.state, card().info.revision], ['blocked', revision], 'blocked all along: only its prompt changed');
    board.unwatch(viewer);
  });
});
