import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiveAgents, type LiveChange } from '../../src/client/live-agents.ts';
import type { AgentInfo } from '../../src/protocol/methods/agent.ts';
import type { AnyCorralEvent } from '../../src/protocol/methods/events.ts';
import { agentInfo } from '../helpers/agent-info.ts';

let cursor = 100;
const event = (kind: string, id: string, data: object) => ({ cursor: cursor++, ts: 0, kind, pane: { id, name: null }, data }) as AnyCorralEvent;
/** A state change as a 2.7 daemon publishes it: the agent whole in `info`. */
const changed = (info: AgentInfo, from = 'working') =>
  event('agent.stateChanged', info.id, { agent: info.agent, from, to: info.state, rule: info.rule, source: info.source, seen: info.seen, revision: info.revision, seq: info.revision, info });

test('events before the snapshot wait for it and follow it, in order', () => {
  const live = new LiveAgents();
  const changes: LiveChange['kind'][] = [];
  live.onChange((change) => changes.push(change.kind));
  live.apply(changed(agentInfo('w1:p1', 'blocked', { revision: 3 })));
  live.apply(event('agent.released', 'w1:p2', { agent: 'claude', state: 'idle', seq: 4 }));
  assert.equal(live.started, false);
  assert.equal(live.size, 0, 'nothing shows before the snapshot');
  live.reset([agentInfo('w1:p1', 'working', { revision: 2 }), agentInfo('w1:p2', 'idle')]);
  assert.deepEqual(changes, ['reset']);
  assert.equal(live.get('w1:p1')?.state, 'blocked', 'the held change is newer than the snapshot');
  assert.equal(live.get('w1:p2'), null, 'released after the snapshot was taken');
});

test('an event alone updates an agent whole; an older revision never replaces a newer', () => {
  const live = new LiveAgents();
  live.reset([agentInfo('w1:p1', 'working', { revision: 2 })]);
  live.apply(changed(agentInfo('w1:p1', 'done', { revision: 4, title: 'finished', queued: 1 })));
  assert.deepEqual(live.get('w1:p1'), agentInfo('w1:p1', 'done', { revision: 4, title: 'finished', queued: 1 }));
  live.apply(changed(agentInfo('w1:p1', 'working', { revision: 3 })));
  assert.equal(live.get('w1:p1')?.state, 'done');
  live.apply(event('metadata.changed', 'w1:p1', { metadata: { title: 'x' }, info: agentInfo('w1:p1', 'done', { revision: 4, metadata: { title: 'x' } }) }));
  assert.deepEqual(live.get('w1:p1')?.metadata, { title: 'x' }, 'the same revision with a new extra is taken');
});

test('a pane leaves on release and on removal; a new agent comes with its detection', () => {
  const live = new LiveAgents();
  live.reset([agentInfo('w1:p1', 'idle'), agentInfo('w1:p2', 'idle')]);
  live.apply(event('agent.released', 'w1:p1', { agent: 'claude', state: 'idle', seq: 5 }));
  live.apply(event('pane.removed', 'w1:p2', { exitCode: 0, signal: null }));
  live.apply(event('agent.detected', 'w1:p3', { agent: 'codex', previous: null, state: 'working', seq: 6, info: agentInfo('w1:p3', 'working', { agent: 'codex' }) }));
  assert.deepEqual(live.list().map((info) => info.id), ['w1:p3']);
});

test('"needs you" is blocked, and done until seen, whatever the inbox holds', () => {
  const live = new LiveAgents();
  live.reset([agentInfo('w1:p1', 'blocked', { seen: true }), agentInfo('w1:p2', 'done'), agentInfo('w1:p3', 'idle'), agentInfo('w1:p4', 'working')]);
  assert.equal(live.needingCount(), 2, 'a blocked agent looked at still needs you');
  live.apply(event('agent.stateChanged', 'w1:p2', { agent: 'claude', from: 'done', to: 'idle', rule: 'r', source: 's', seen: true, revision: 2, seq: 9, info: agentInfo('w1:p2', 'idle', { revision: 2 }) }));
  assert.equal(live.needingCount(), 1, 'done, once seen, is idle');
});

test('an event of a daemon before 2.7 patches what it says and asks for the rest', () => {
  const live = new LiveAgents();
  const incomplete: string[] = [];
  live.onChange((change) => change.kind === 'incomplete' && incomplete.push(change.id));
  live.reset([agentInfo('w1:p1', 'working')]);
  live.apply(event('agent.stateChanged', 'w1:p1', { agent: 'claude', from: 'working', to: 'blocked', rule: 'r', source: 's', seen: false, revision: 2, seq: 2 }));
  assert.equal(live.get('w1:p1')?.state, 'blocked');
  live.apply(event('agent.detected', 'w1:p9', { agent: 'claude', previous: null, state: 'working', seq: 3 }));
  assert.deepEqual(incomplete, ['w1:p9']);
  live.take(agentInfo('w1:p9', 'working'));
  assert.equal(live.get('w1:p9')?.state, 'working');
});

test("agent.usageChanged updates the agent's figures, and a budget's inbox item is told as it enters though the view keeps none", () => {
  const live = new LiveAgents();
  live.reset([agentInfo('w1:p1', 'idle', { revision: 2 })]);
  const changes: LiveChange[] = [];
  live.onChange((change) => changes.push(change));
  const crossing = { budget: 'daily', scope: 'agent', period: 'day', unit: 'tokens', limit: 100, spent: 90, percent: '80', periodStart: 0 } as const;
  const usage = { tokens: { input: 60, output: 30, cacheRead: 0, cacheWrite: 0 }, cost: null, currency: 'USD', model: 'm', since: 0, source: 'transcript:claude', prices: 'v', models: [], skipped: 0, updatedAt: 1, budget: crossing };
  live.apply(event('agent.usageChanged', 'w1:p1', { agent: 'claude', usage }));
  assert.deepEqual(live.get('w1:p1')?.usage, usage);
  assert.equal(live.get('w1:p1')?.revision, 2, 'the agent itself did not change');
  const item = { id: 7, pane: { id: 'w1:p1', name: null }, agent: 'claude', state: 'budget', message: 'budget daily: 80% spent', title: null, prompt: null, ts: 0, seq: 0, cursor: 0, budget: crossing };
  live.apply(event('inbox.added', 'w1:p1', { item }));
  assert.deepEqual(changes.map((change) => change.kind), ['agent', 'inbox']);
  assert.equal(changes[1]!.kind === 'inbox' ? changes[1]!.added?.id : null, 7);
  assert.equal(live.inbox.of('w1:p1'), null, "a budget's item is not the pane's attention item");
});
