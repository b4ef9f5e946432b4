import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InboxView } from '../../src/client/inbox-view.ts';
import type { AnyCorralEvent } from '../../src/protocol/methods/events.ts';
import type { InboxItem } from '../../src/protocol/methods/inbox.ts';

let cursor = 100;
const pane = (id: string) => ({ id, name: null });
const item = (id: number, paneId: string, state: 'blocked' | 'done' = 'blocked'): InboxItem => ({ id, pane: pane(paneId), agent: 'claude', state, seq: id, cursor: id, ts: 0, title: null, message: '', prompt: null });
const added = (entry: InboxItem) => ({ cursor: cursor++, ts: 0, kind: 'inbox.added', pane: entry.pane, data: { item: entry } }) as AnyCorralEvent;
const acknowledged = (paneId: string, ids: number[]) => ({ cursor: cursor++, ts: 0, kind: 'inbox.acknowledged', pane: pane(paneId), data: { ids } }) as AnyCorralEvent;

test('a list read after subscribing, with events before and after its answer, ends exact', () => {
  const view = new InboxView();
  // Before the list's answer: p2's item came and went, p3's came.
  view.apply(added(item(2, 'p2')));
  view.apply(acknowledged('p2', [2]));
  view.apply(added(item(3, 'p3')));
  // The list was taken before p2's acknowledgement: it still holds item 2, and p1's older item 1.
  assert.deepEqual(view.applyList([item(1, 'p1'), item(2, 'p2'), item(3, 'p3')]), ['p1']);
  assert.deepEqual(view.items().map((entry) => entry.id).sort(), [1, 3]);
  assert.equal(view.size, 2);
  // After it: a newer item of p1 replaces its older one; an acknowledgement of an id no longer held changes nothing.
  assert.equal(view.apply(added(item(4, 'p1', 'done'))), 'p1');
  assert.equal(view.of('p1')?.id, 4);
  assert.equal(view.apply(acknowledged('p1', [1])), null);
  assert.equal(view.apply(acknowledged('p1', [4])), 'p1');
  assert.equal(view.of('p1'), null);
});

test("a removed pane's item goes with it; other events change nothing", () => {
  const view = new InboxView();
  view.applyList([item(5, 'p5')]);
  assert.equal(view.apply({ cursor: cursor++, ts: 0, kind: 'metadata.changed', pane: pane('p5'), data: { metadata: null } } as AnyCorralEvent), null);
  assert.equal(view.apply({ cursor: cursor++, ts: 0, kind: 'pane.removed', pane: pane('p5'), data: { exitCode: 0, signal: null } } as AnyCorralEvent), 'p5');
  assert.equal(view.size, 0);
});

test("a budget's item is held apart from the pane's reminder, replaced by a newer crossing and gone when acknowledged", () => {
  const view = new InboxView();
  const budget = (id: number, paneId: string): InboxItem => ({ ...item(id, paneId), state: 'budget' });
  view.applyList([item(6, 'p6'), budget(7, 'p6')]);
  assert.deepEqual([view.of('p6')?.id, view.size, view.budgetItems().map((entry) => entry.id)], [6, 1, [7]]);
  assert.equal(view.apply(added(budget(8, 'p6'))), null, "no card's reminder changed");
  assert.deepEqual(view.budgetItems().map((entry) => entry.id), [8]);
  view.apply(acknowledged('p6', [8]));
  assert.deepEqual([view.of('p6')?.id, view.budgetItems()], [6, []]);
});
