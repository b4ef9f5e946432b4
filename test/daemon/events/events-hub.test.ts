import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventHub } from '../../../src/daemon/events/event-hub.ts';
import { createLogger } from '../../../src/daemon/logger.ts';
import { matchesEventFilter, parseEventFilter } from '../../../src/protocol/methods/events.ts';

const log = createLogger('silent');
const pane = { id: 'w1:p1', name: 'api' };

describe('EventHub', () => {
  it('numbers events from 1, keeps the last `retain`, and never reuses a cursor', () => {
    const hub = new EventHub({ retain: 3, log, now: () => 42 });
    assert.equal(hub.cursor, 0);
    hub.checkResumable(0);
    for (let i = 0; i < 5; i += 1) hub.publish('pane.exited', pane, { exitCode: i, signal: null });
    assert.deepEqual([hub.cursor, hub.oldest], [5, 3]);
    assert.equal(hub.at(2), undefined);
    assert.deepEqual(hub.at(3)!.event, { cursor: 3, ts: 42, kind: 'pane.exited', pane, data: { exitCode: 2, signal: null } });
    hub.checkResumable(2); // everything after 2 is still there
    assert.throws(() => hub.checkResumable(1), { code: 'cursor_too_old' });
    assert.throws(() => hub.checkResumable(6), { code: 'stream_changed', message: /ahead of the last event 5/ }, 'a cursor ahead of the stream is not called too old');
  });

  it('keeps at most `retainBytes` of events, the oldest going first, and always the newest', () => {
    const hub = new EventHub({ retain: 1000, retainBytes: 10_000, log });
    const big = { id: 'w1:p1', name: 'x'.repeat(3000) };
    for (let i = 0; i < 10; i += 1) hub.publish('pane.exited', big, { exitCode: i, signal: null });
    assert.equal(hub.cursor, 10);
    assert.equal(hub.oldest, 8, 'three events of about 3 KB fit in 10,000 bytes');
    assert.equal(hub.at(7), undefined);
    assert.throws(() => hub.checkResumable(6), { code: 'cursor_too_old', message: /at most 10000 bytes/ });
    hub.publish('pane.exited', { id: 'w1:p1', name: 'y'.repeat(20_000) }, { exitCode: 0, signal: null });
    assert.deepEqual([hub.oldest, hub.cursor], [11, 11], 'an event over the bound alone is still kept');
  });

  it('tells listeners synchronously, in order', () => {
    const hub = new EventHub({ retain: 10, log });
    const seen: number[] = [];
    const listening = hub.onPublish(({ event }) => seen.push(event.cursor));
    hub.publish('pane.removed', pane, { exitCode: 0, signal: null });
    hub.publish('pane.removed', pane, { exitCode: 0, signal: null });
    listening.dispose();
    hub.publish('pane.removed', pane, { exitCode: 0, signal: null });
    assert.deepEqual(seen, [1, 2]);
  });
});

describe('the event filter language', () => {
  const event = (kind: string, p = pane) => ({ cursor: 1, ts: 0, kind, pane: p, data: {} });

  it('ORs values of one field and ANDs fields', () => {
    const filter = parseEventFilter('kind:agent.attention,pane.* pane:api,w1:p9 agent:claude');
    assert.deepEqual(filter, { kinds: ['agent.attention', 'pane.*'], panes: ['api', 'w1:p9'], agents: ['claude'], workspaces: [], states: [] });
    assert.equal(matchesEventFilter(filter, event('agent.attention'), 'claude'), true);
    assert.equal(matchesEventFilter(filter, event('pane.exited'), 'claude'), true);
    assert.equal(matchesEventFilter(filter, event('agent.stateChanged'), 'claude'), false);
    assert.equal(matchesEventFilter(filter, event('agent.attention'), 'codex'), false);
    assert.equal(matchesEventFilter(filter, event('agent.attention', { id: 'w1:p2', name: 'web' }), 'claude'), false);
    assert.equal(matchesEventFilter(parseEventFilter(''), event('metadata.changed'), null), true);
  });

  it('refuses unknown fields and kinds with invalid_params naming the term', () => {
    assert.throws(() => parseEventFilter('kind:agent.attenton'), { code: 'invalid_params', message: /"agent.attenton" is not an event kind/ });
    assert.throws(() => parseEventFilter('status:blocked'), { code: 'invalid_params', message: /field "status"/ });
    assert.throws(() => parseEventFilter('state:asleep'), { code: 'invalid_params', message: /"asleep" is not an agent state/ });
    assert.throws(() => parseEventFilter('pane'), { code: 'invalid_params', message: /not field:value/ });
    assert.throws(() => parseEventFilter('pane:a,'), { code: 'invalid_params', message: /empty value/ });
    assert.throws(() => parseEventFilter(`pane:${Array.from({ length: 65 }, (_, i) => `p${i}`).join(',')}`), { message: /more than 64/ });
  });
});
