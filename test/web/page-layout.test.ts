// The board page's pure parts: where cards go (src/web/page/card-slots.ts), when age labels move
// on (src/web/page/format.ts), and which cards the filter lets through (src/web/page/board-filter.ts). How a tail line is cut to its card: test/base/cells.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CARD_GAP, CARD_HEIGHT, boardHeight, cardLayout, slotTransform, tailWidth } from '../../src/web/page/card-slots.ts';
import { nextTick } from '../../src/web/page/format.ts';
import { BoardFilter, workspaceKey } from '../../src/web/page/board-filter.ts';
import type { BoardCard } from '../../src/web/wire.ts';

describe('the board page places cards in slots of one size', () => {
  it('fits as many columns of at least 300 px as the width holds, and one on a phone', () => {
    assert.deepEqual(cardLayout(1248), { columns: 4, cardWidth: 303 });
    assert.deepEqual(cardLayout(370), { columns: 1, cardWidth: 370 });
    assert.deepEqual(cardLayout(100), { columns: 1, cardWidth: 100 });
    assert.equal(cardLayout(611).columns, 1);
    assert.equal(cardLayout(612).columns, 2);
  });

  it('puts a card by its index, row by row, and sizes the board to its rows', () => {
    const layout = cardLayout(1248);
    assert.equal(slotTransform(0, layout), 'translate(0px, 0px)');
    assert.equal(slotTransform(5, layout), `translate(${303 + CARD_GAP}px, ${CARD_HEIGHT + CARD_GAP}px)`);
    assert.equal(boardHeight(0, layout), 0);
    assert.equal(boardHeight(4, layout), CARD_HEIGHT);
    assert.equal(boardHeight(5, layout), 2 * CARD_HEIGHT + CARD_GAP);
    assert.ok(tailWidth(303) < 303);
  });
});

describe('age labels move on at their page tick', () => {
  it('waits until the next multiple of the tick past the phase', () => {
    assert.equal(nextTick(1000, 250, 10_000), 250);
    assert.equal(nextTick(1000, 250, 10_250), 1000);
    assert.equal(nextTick(1000, 250, 10_300), 950);
    assert.equal(nextTick(1000, 900, 10_000), 900);
  });
});

describe('the board filter lets through the cards that hold every word', () => {
  const card = (name: string, workspace: string, state: string, host?: string) =>
    ({ info: { id: `w1:p${name.length}`, name, agent: 'claude', workspace, state }, tail: [], inbox: null, ...(host ? { host } : {}) }) as unknown as BoardCard;

  it('matches name, agent, workspace, host and state, any case, every word; a pill keeps one workspace', () => {
    const filter = new BoardFilter();
    const api = card('api-worker', 'api', 'blocked', 'build');
    const docs = card('docs', 'default', 'idle');
    assert.ok(filter.empty && filter.matches(api) && filter.matches(docs));
    filter.text = 'API  Blocked';
    assert.deepEqual([filter.matches(api), filter.matches(docs)], [true, false]);
    filter.text = 'build claude';
    assert.deepEqual([filter.matches(api), filter.matches(docs)], [true, false]);
    filter.text = '';
    filter.toggleWorkspace(workspaceKey(docs));
    assert.deepEqual([filter.matches(api), filter.matches(docs)], [false, true]);
    assert.equal(workspaceKey(api), 'api@build');
    const version = filter.version;
    filter.toggleWorkspace('default');
    assert.ok(filter.empty && filter.version > version, 'pressed again: released');
    filter.workspace = 'api@build';
    filter.clear();
    assert.ok(filter.empty);
  });
});
