import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterAgents, namePattern, rollup } from '../../../src/daemon/agents/list-view.ts';
import { ChangeLedger } from '../../../src/daemon/waits/change-ledger.ts';
import { expandUntil, judgeTarget, type TargetFacts } from '../../../src/daemon/waits/wait-match.ts';
import { agentInfo } from '../../helpers/agent-info.ts';
import type { AgentInfo } from '../../../src/protocol/methods/agent.ts';
import type { AgentState } from '../../../src/protocol/states.ts';

function info(id: string, state: AgentState, extra: Partial<AgentInfo> = {}): AgentInfo {
  return agentInfo(id, state, { name: id, ...extra });
}

describe('agent.list views', () => {
  it('rolls a workspace up to its most pressing state: blocked > working > done > idle > unknown', () => {
    const states: AgentState[][] = [['idle', 'unknown'], ['idle', 'done'], ['done', 'working', 'idle'], ['working', 'blocked'], ['unknown']];
    const expected = ['idle', 'done', 'working', 'blocked', 'unknown'];
    states.forEach((set, i) => {
      const [w] = rollup(set.map((s, j) => info(`p${j}`, s)));
      assert.equal(w!.state, expected[i], `${set.join(',')}`);
    });
  });

  it('counts each state per workspace and leaves out panes with no agent', () => {
    const result = rollup([info('a', 'idle'), info('b', 'idle', { workspace: 'w2' }), info('c', 'unknown', { agent: null })]);
    assert.deepEqual(result.map((w) => [w.workspace, w.state, w.counts.idle]), [['w1', 'idle', 1], ['w2', 'idle', 1]]);
    assert.equal(result[0]!.counts.unknown, 0);
  });

  it('filters by agent, literal state, workspace and a name pattern', () => {
    const all = [info('api-1', 'idle'), info('api-2', 'done'), info('web', 'working', { agent: 'codex' }), info('x', 'idle', { name: null })];
    const ids = (f: Parameters<typeof filterAgents>[1]) => filterAgents(all, f).map((a) => a.id);
    assert.deepEqual(ids({ agent: 'codex' }), ['web']);
    assert.deepEqual(ids({ state: ['idle'] }), ['api-1', 'x'], 'idle does not take done in a filter');
    assert.deepEqual(ids({ name: 'api-*' }), ['api-1', 'api-2']);
    assert.deepEqual(ids({ name: 'api-?', state: ['done'] }), ['api-2']);
    assert.deepEqual(ids({ workspace: 'w2' }), []);
  });

  it('reads name patterns literally apart from * and ?', () => {
    assert.ok(namePattern('a.b*').test('a.b-c'));
    assert.ok(!namePattern('a.b*').test('axb'));
    assert.ok(!namePattern('web').test('web2'), 'the whole name must match');
  });
});

describe('wait matching', () => {
  const facts = (extra: Partial<TargetFacts> = {}): TargetFacts => ({
    present: true, paneExited: false, agent: 'claude', state: 'idle', stateSince: 0, turnSeq: 5, released: false, ...extra,
  });

  it('takes done for idle', () => {
    assert.deepEqual([...expandUntil(['idle'])].sort(), ['done', 'idle']);
    assert.deepEqual([...expandUntil(['done'])], ['done']);
  });

  it('matches a wanted state only when its last turn came after sinceSeq', () => {
    const want = expandUntil(['idle']);
    assert.equal(judgeTarget(facts(), want, undefined), 'match');
    assert.equal(judgeTarget(facts({ state: 'done' }), want, 4), 'match');
    assert.equal(judgeTarget(facts(), want, 5), 'wait');
    assert.equal(judgeTarget(facts({ state: 'working' }), want, undefined), 'wait');
  });

  it('calls a target gone once removed, exited or released with no agent, and waits on one not identified yet', () => {
    const want = expandUntil(['idle']);
    assert.equal(judgeTarget(facts({ present: false }), want, undefined), 'gone');
    assert.equal(judgeTarget(facts({ agent: null, paneExited: true }), want, undefined), 'gone');
    assert.equal(judgeTarget(facts({ agent: null, released: true }), want, undefined), 'gone');
    assert.equal(judgeTarget(facts({ agent: null, state: 'unknown' }), expandUntil(['unknown']), undefined), 'wait');
  });

  it('advances a pane turn on agent and raw state changes and releases, never on a seen flip', () => {
    const ledger = new ChangeLedger();
    const view = (state: 'idle' | 'working', seen: boolean, agent: string | null = 'claude') =>
      ({ agent, identity: 'process', state, displayed: state === 'idle' && !seen ? 'done' : state, seen, rule: 'screen_rule', source: 's', revision: 1, stateSince: 0, generation: 1 }) as const;
    const change = (seq: number, kind: 'changed' | 'released', before: ReturnType<typeof view>, after: ReturnType<typeof view>) =>
      ({ seq, pane: { id: 'p' }, record: { kind, at: 0, revision: 1, before, after }, info: {} }) as never;
    ledger.record(change(1, 'changed', view('idle', true), view('working', true)));
    ledger.record(change(2, 'changed', view('working', true), view('idle', false)));
    ledger.record(change(3, 'changed', view('idle', false), view('idle', true)));
    assert.deepEqual(ledger.turnOf('p'), { turnSeq: 2, released: false });
    ledger.record(change(4, 'released', view('idle', true), view('idle', true, null)));
    assert.deepEqual(ledger.turnOf('p'), { turnSeq: 4, released: true });
  });
});
