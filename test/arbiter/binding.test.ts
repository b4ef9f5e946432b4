import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PaneArbiter } from '../../src/arbiter/index.ts';
import { agentRunning, pane, paneWithAgent, userVar } from './harness.ts';

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

test('a hook of the pane\'s agent identified through a wrapper (CORRAL_AGENT=claude fence -- claude) is accepted', () => {
  // Before: the claude process under the wrapper was taken for a nested agent (nested_agent).
  const { arbiter, tree } = pane();
  tree.spawn(300, 100, undefined, 'claude'); // fence, identified by its CORRAL_AGENT hint
  tree.spawn(301, 300); // the wrapper's shell
  tree.spawn(302, 301, 'claude'); // claude itself
  tree.spawn(303, 302); // the hook
  arbiter.observeProcess(agentRunning('claude', 300));
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: 303 }).accepted, true);
  assert.equal(arbiter.view().state, 'working');
});

test('a hook of an agent identified only by CORRAL_AGENT on an unnamed program is accepted', () => {
  // Before: no process above the hook was an agent by its image, so it was refused (not_under_agent).
  const { arbiter, tree } = pane();
  tree.spawn(400, 100, undefined, 'claude'); // `CORRAL_AGENT=claude my-agent`: no manifest names my-agent
  tree.spawn(401, 400); // the hook
  arbiter.observeProcess(agentRunning('claude', 400));
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', pid: 401 }).accepted, true);
});

test('behind a wrapper, a nested agent is still refused', () => {
  const { arbiter, tree } = pane();
  tree.spawn(300, 100, undefined, 'claude');
  tree.spawn(302, 300, 'claude');
  tree.spawn(310, 302); // claude's bash tool
  tree.spawn(320, 310, 'claude'); // a nested claude
  tree.spawn(321, 320);
  arbiter.observeProcess(agentRunning('claude', 300));
  assert.equal(arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', pid: 321 }).reason, 'nested_agent');
  tree.spawn(330, 310, undefined, 'codex'); // a tool started with its own CORRAL_AGENT
  assert.equal(arbiter.reportAgent({ source: 'hook:codex', agent: 'claude', state: 'blocked', pid: 330 }).reason, 'nested_agent');
});

test('a declared pid that differs from the kernel\'s is refused', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  const result = arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: hookPid, declaredPid: 4242 });
  assert.equal(result.reason, 'pid_mismatch');
});

test('under inband = foreground, in-band reports count only with the foreground agent\'s pid', () => {
  const made = pane({});
  const arbiter = new PaneArbiter({ clock: made.clock, tree: made.tree, inband: 'foreground' });
  made.tree.spawn(200, 100, 'claude');
  arbiter.observeProcess(agentRunning('claude', 200));
  assert.equal(arbiter.observeOsc(userVar('v1;agent=claude;state=blocked'))?.reason, 'inband_unbound');
  assert.equal(arbiter.observeOsc(userVar('v1;agent=claude;state=blocked;pid=777'))?.reason, 'inband_unbound');
  assert.equal(arbiter.observeOsc({ kind: 'programStatus', value: { state: 'working', fields: {} } })?.reason, 'inband_unbound');
  assert.equal(arbiter.observeOsc(userVar('v1;agent=claude;state=blocked;pid=200'))?.accepted, true);
});
