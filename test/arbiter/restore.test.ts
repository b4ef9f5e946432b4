import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PaneArbiter, type ArbiterMemory } from '../../src/arbiter/index.ts';
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
