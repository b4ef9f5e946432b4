// Which items a push device or the webhook gets, and when: its states, its workspaces, its quiet hours
// (local time, held not dropped), and a spent budget always and at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../src/protocol/methods/inbox.ts';
import { deliveryOf, workspaceOf } from '../../../src/daemon/push/delivery-rules.ts';
import { effectiveQuietHours, quietFor } from '../../../src/daemon/push/quiet-hours.ts';

const at = (hh: number, mm: number, ss = 0) => new Date(2026, 11, 6, hh, mm, ss);
const item = (state: InboxItem['state'], pane = 'api:p3', percent?: '80' | '100'): InboxItem =>
  ({ id: 7, pane: { id: pane, name: null }, agent: 'claude', state, seq: 1, cursor: 1, ts: 0, title: null, message: '', prompt: null, ...(percent ? { budget: { percent } } : {}) }) as InboxItem;

describe('quiet hours', () => {
  it('hold from their start to their end, past midnight too, and say how long is left', () => {
    assert.equal(quietFor('22:00-07:00', at(21, 59, 59)), null);
    assert.equal(quietFor('22:00-07:00', at(22, 0)), 9 * 3600_000);
    assert.equal(quietFor('22:00-07:00', at(6, 59, 30)), 30_000);
    assert.equal(quietFor('22:00-07:00', at(7, 0)), null);
    assert.equal(quietFor('12:30-13:00', at(12, 45)), 15 * 60_000);
    assert.equal(quietFor('12:30-13:00', at(13, 0)), null);
    assert.equal(quietFor('09:00-09:00', at(9, 0)), null, 'an empty span');
    assert.equal(quietFor(null, at(3, 0)), null);
  });

  it("a receiver's own win over the daemon's; off is none", () => {
    assert.equal(effectiveQuietHours(undefined, '22:00-07:00'), '22:00-07:00');
    assert.equal(effectiveQuietHours(null, '22:00-07:00'), '22:00-07:00');
    assert.equal(effectiveQuietHours('off', '22:00-07:00'), null);
    assert.equal(effectiveQuietHours('01:00-02:00', null), '01:00-02:00');
  });
});

describe('what a receiver gets', () => {
  const noon = at(12, 0);
  it('the states and workspaces it chose', () => {
    assert.deepEqual(deliveryOf(item('blocked'), { states: ['blocked'] }, null, noon), { send: true });
    assert.deepEqual(deliveryOf(item('done'), { states: ['blocked'] }, null, noon), { skip: true });
    assert.deepEqual(deliveryOf(item('blocked', 'web:p1'), { states: ['blocked', 'done'], workspaces: ['api'] }, null, noon), { skip: true });
    assert.deepEqual(deliveryOf(item('blocked', 'api:p1'), { states: ['blocked', 'done'], workspaces: ['api'] }, null, noon), { send: true });
    assert.deepEqual(deliveryOf(item('budget', 'api:p1', '80'), { states: ['blocked', 'done'] }, null, noon), { skip: true }, "a budget's warning only when asked");
    assert.deepEqual(deliveryOf(item('budget', 'api:p1', '80'), { states: ['blocked', 'done', 'budget'] }, null, noon), { send: true });
    assert.equal(workspaceOf('w1:p12'), 'w1');
  });

  it('held during quiet hours until they end; a spent budget at once, whatever was chosen', () => {
    assert.deepEqual(deliveryOf(item('blocked'), { states: ['blocked'] }, '11:00-12:30', noon), { hold: 30 * 60_000 });
    assert.deepEqual(deliveryOf(item('blocked'), { states: ['blocked'], quietHours: 'off' }, '11:00-12:30', noon), { send: true });
    assert.deepEqual(deliveryOf(item('budget', 'web:p1', '100'), { states: ['blocked'], workspaces: ['api'] }, '11:00-12:30', noon), { send: true });
  });
});
