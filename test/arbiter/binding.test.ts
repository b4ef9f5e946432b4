import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pane, paneWithAgent, userVar } from './harness.ts';

test('a report from a pid outside the pane\'s process tree is rejected', () => {
  const { arbiter } = paneWithAgent('claude');
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: 9999 }).reason, 'not_in_pane');
});

test('a nested agent cannot hijack its parent\'s pane, even of the same kind', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  tree.spawn(210, 200); // the parent's bash tool
  tree.spawn(220, 210, 'claude'); // a nested claude it started
  tree.spawn(221, 220); // the nested claude's hook
  const result = arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', pid: 221 });
  assert.deepEqual({ accepted: result.accepted, reason: result.reason }, { accepted: false, reason: 'nested_agent' });
  assert.equal(arbiter.view().state, 'unknown');
});

test('a nested agent\'s self report carrying its pid is rejected too', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  tree.spawn(230, 200, 'codex');
  assert.equal(arbiter.observeOsc(userVar('v1;agent=claude;state=idle;pid=230'))?.reason, 'nested_agent');
});

test('a process in the pane but not under the identified agent is rejected', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  tree.spawn(150, 100); // a background job of the shell
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'idle', pid: 150 }).reason, 'not_under_agent');
});

test('a hook under the pane\'s own agent is accepted', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201);
  tree.spawn(202, 201); // hook wrapper shell, then the hook command
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: 202 }).accepted, true);
});

test('where no agent is identified, a pid in the pane binds the report and labels the pane', () => {
  const { arbiter, tree } = pane();
  tree.spawn(150, 100);
  assert.equal(arbiter.reportAgent({ source: 'hook:tool', agent: 'tool', state: 'working', pid: 150 }).accepted, true);
  assert.equal(arbiter.view().agent, 'tool');
});
