import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REMEMBERED_REPORTS, PaneArbiter, type ArbiterMemory } from '../../src/arbiter/index.ts';
import { ManualClock, TreeModel, agentRunning, verdict, SECOND } from './harness.ts';

/** A first daemon's arbiter that saw `states` from claude (pid 200), then its memory. */
function remembered(states: Array<'working' | 'blocked' | 'idle'>, markSeen = false): ArbiterMemory {
  const clock = new ManualClock();
  const tree = new TreeModel(100);
  tree.spawn(200, 100, 'claude');
  const arbiter = new PaneArbiter({ clock, tree, windows: { startupSettleMs: 0, debounceMs: 0 } });
  arbiter.observeProcess(agentRunning('claude', 200));
  for (const state of states) {
    clock.advance(SECOND);
    arbiter.observeScreen(verdict('claude', state, `${state}_rule`));
  }
  if (markSeen) arbiter.markSeen();
  return JSON.parse(JSON.stringify(arbiter.memory())) as ArbiterMemory;
}

/** A second daemon's arbiter restored from `memory`, reading `screen` from the same process. */
function restored(memory: ArbiterMemory, screen: 'working' | 'blocked' | 'idle', agentPid = 200) {
  const clock = new ManualClock();
  const tree = new TreeModel(100);
  tree.spawn(agentPid, 100, 'claude');
  const arbiter = new PaneArbiter({ clock, tree, windows: { startupSettleMs: 0, debounceMs: 0 } });
  arbiter.restore(memory);
  arbiter.observeProcess(agentRunning('claude', agentPid));
  arbiter.observeScreen(verdict('claude', screen, `${screen}_rule`));
  return arbiter.view();
}

test('a turn that ended while no daemon ran comes back done', () => {
  const view = restored(remembered(['idle', 'working']), 'idle');
  assert.deepEqual([view.state, view.seen, view.displayed], ['idle', false, 'done']);
});

test('a blocked turn answered and finished while no daemon ran comes back done', () => {
  assert.equal(restored(remembered(['idle', 'blocked']), 'idle').displayed, 'done');
});

test('a done pane not yet seen stays done across a restart; a seen one stays idle', () => {
  assert.equal(restored(remembered(['working', 'idle']), 'idle').displayed, 'done');
  assert.equal(restored(remembered(['working', 'idle'], true), 'idle').displayed, 'idle');
  assert.equal(restored(remembered(['idle']), 'idle').displayed, 'idle');
});

test('a turn still running after the restart reads working, then done when it ends', () => {
  const clock = new ManualClock();
  const tree = new TreeModel(100);
  tree.spawn(200, 100, 'claude');
  const arbiter = new PaneArbiter({ clock, tree, windows: { startupSettleMs: 0, debounceMs: 0 } });
  arbiter.restore(remembered(['idle', 'working']));
  arbiter.observeProcess(agentRunning('claude', 200));
  arbiter.observeScreen(verdict('claude', 'working', 'working_rule'));
  assert.equal(arbiter.view().displayed, 'working');
  clock.advance(SECOND);
  arbiter.observeScreen(verdict('claude', 'idle', 'idle_rule'));
  assert.equal(arbiter.view().displayed, 'done');
});

test('another agent process after the restart starts fresh: idle, not done', () => {
  assert.equal(restored(remembered(['idle', 'working']), 'idle', 300).displayed, 'idle');
});

test('the restored last state survives a second restart before anything is read', () => {
  const clock = new ManualClock();
  const arbiter = new PaneArbiter({ clock, tree: new TreeModel(100) });
  const memory = remembered(['idle', 'working']);
  arbiter.restore(memory);
  assert.deepEqual(arbiter.memory().last, memory.last);
});

test('a state file without the last state restores as before', () => {
  const memory = remembered(['idle', 'working']);
  delete memory.last;
  assert.equal(restored(memory, 'idle').displayed, 'idle');
});

/** A first daemon's arbiter in a pane with no agent process (a plain program, pid 300, group 300). */
function reportedPane() {
  const clock = new ManualClock();
  const tree = new TreeModel(100);
  tree.spawn(300, 100);
  tree.spawn(301, 300); // a hook-like child of the program
  const arbiter = new PaneArbiter({ clock, tree });
  const program = { observable: true, leaderPid: 300, pgid: 300, agent: null, agentPid: null };
  arbiter.observeProcess(program);
  return { arbiter, clock, tree, program };
}

test('an agent and state a self report gave come back with the pane, with the same source', () => {
  const first = reportedPane();
  assert.equal(first.arbiter.observeOsc({ kind: 'userVar', name: 'CORRAL_AGENT', value: 'v1;agent=myagent;state=blocked' })?.accepted, true);
  const before = first.arbiter.view();
  const memory = JSON.parse(JSON.stringify(first.arbiter.memory())) as ArbiterMemory;

  const second = reportedPane();
  const arbiter = new PaneArbiter({ clock: second.clock, tree: second.tree });
  arbiter.restore(memory);
  arbiter.observeProcess(second.program);
  const view = arbiter.view();
  assert.deepEqual([view.agent, view.identity, view.state, view.source], ['myagent', 'report', 'blocked', 'report:osc1337']);
  assert.equal(view.generation, before.generation);
});

test('the seq and ts watermarks survive a restart: replayed reports are refused', () => {
  const first = reportedPane();
  const now = Math.floor(first.clock.now() / 1000);
  const hook = { source: 'hook:x', agent: 'myagent', state: 'blocked' as const, pid: 301 };
  assert.equal(first.arbiter.reportAgent({ ...hook, seq: 5 }).accepted, true);
  assert.equal(first.arbiter.reportAgent({ ...hook, source: 'hook:ts', ts: now }).accepted, true);
  const memory = JSON.parse(JSON.stringify(first.arbiter.memory())) as ArbiterMemory;

  const second = reportedPane();
  const arbiter = new PaneArbiter({ clock: second.clock, tree: second.tree });
  arbiter.restore(memory);
  arbiter.observeProcess(second.program);
  assert.equal(arbiter.reportAgent({ ...hook, seq: 5 }).reason, 'stale_seq');
  assert.equal(arbiter.reportAgent({ ...hook, source: 'hook:ts', state: 'idle', ts: now - 5 }).reason, 'out_of_order');
  assert.deepEqual([arbiter.view().agent, arbiter.view().state, arbiter.view().source], ['myagent', 'blocked', 'report:hook:ts']);
});

test('restored reports are dropped when another process runs after the restart, or their group left', () => {
  const first = reportedPane();
  first.arbiter.observeOsc({ kind: 'userVar', name: 'CORRAL_AGENT', value: 'v1;agent=myagent;state=blocked' });
  const memory = JSON.parse(JSON.stringify(first.arbiter.memory())) as ArbiterMemory;
  assert.equal(memory.reports?.[0]?.group, 300, 'the report is bound to the group that printed it');

  const other = reportedPane();
  const arbiter = new PaneArbiter({ clock: other.clock, tree: other.tree });
  arbiter.restore(memory);
  other.tree.spawn(400, 100);
  arbiter.observeProcess({ observable: true, leaderPid: 400, pgid: 400, agent: null, agentPid: null });
  assert.deepEqual([arbiter.view().agent, arbiter.view().state], [null, 'unknown']);
});

test('a state file\'s reports that are malformed or of another generation are left out', () => {
  const first = reportedPane();
  first.arbiter.observeOsc({ kind: 'userVar', name: 'CORRAL_AGENT', value: 'v1;agent=myagent;state=blocked' });
  const memory = JSON.parse(JSON.stringify(first.arbiter.memory())) as ArbiterMemory;
  const good = memory.reports![0]!;
  const bad = [
    { ...good, generation: good.generation - 1 },
    { ...good, source: 'x'.repeat(65) },
    { ...good, agent: 'not an id' },
    { ...good, state: 'sleeping' },
    { ...good, at: 'yesterday' },
    null,
    'osc1337',
  ];
  for (const report of bad) {
    const second = reportedPane();
    const arbiter = new PaneArbiter({ clock: second.clock, tree: second.tree });
    arbiter.restore({ ...memory, reports: [report as never] });
    arbiter.observeProcess(second.program);
    assert.equal(arbiter.view().agent, null, JSON.stringify(report));
  }
  const second = reportedPane();
  const arbiter = new PaneArbiter({ clock: second.clock, tree: second.tree });
  arbiter.restore({ ...memory, reports: 'not a list' as never, lastTs: [['hook:x', 'soon']] as never });
  arbiter.observeProcess(second.program);
  assert.equal(arbiter.view().agent, null);
});

test('a pane remembers at most the newest 64 reports, with their messages cut to 256 characters', () => {
  const first = reportedPane();
  for (let i = 0; i < 70; i += 1) {
    assert.equal(first.arbiter.reportAgent({ source: `hook:s${i}`, agent: 'myagent', state: 'working', pid: 301, message: 'm'.repeat(4096) }).accepted, true);
  }
  const memory = first.arbiter.memory();
  assert.equal(memory.reports?.length, MAX_REMEMBERED_REPORTS);
  assert.equal(memory.reports?.[0]?.source, 'hook:s6', 'the oldest go first');
  assert.ok(memory.reports?.every((report) => report.message?.length === 256));
  assert.ok(JSON.stringify(memory).length < 64 * 1024, `${JSON.stringify(memory).length} bytes`);
});
