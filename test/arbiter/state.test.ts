import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentRunning, paneWithAgent, skipVerdict, verdict, userVar } from './harness.ts';

test('a matched screen rule beats a reported working', () => {
  const { arbiter, hookPid } = paneWithAgent('claude');
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: hookPid });
  arbiter.observeScreen(verdict('claude', 'blocked', 'permission_form'));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule, arbiter.view().source], ['blocked', 'screen_rule', 'screen:permission_form']);
});

test('a matched screen rule beats a self report', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  assert.equal(arbiter.view().state, 'working');
});

test('where no rule matches, the freshest accepted report decides', () => {
  const { arbiter, hookPid, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'idle', null));
  clock.advance(1000); // the start-up window for a first idle
  arbiter.tick();
  assert.equal(arbiter.view().rule, 'screen_fallback');
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: hookPid });
  arbiter.observeOsc(userVar('v1;agent=claude;state=blocked'));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule, arbiter.view().source], ['blocked', 'report', 'report:osc1337']);
});

test('with no rule matched and no report, the manifest fallback decides', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'idle', null));
  clock.advance(1000); // the start-up window for a first idle
  arbiter.tick();
  assert.deepEqual([arbiter.view().state, arbiter.view().source], ['idle', 'fallback:default_known_agent_idle_fallback']);
});

test('a verdict for another agent than the pane\'s is not evidence', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('codex', 'working', 'spinner'));
  assert.equal(arbiter.view().state, 'unknown');
});

test('skip_state_update keeps the previous state', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.observeScreen(skipVerdict('claude'));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['working', 'screen_skip']);
});

test('a report that arrives while the screen skips decides, an older one does not', () => {
  const { arbiter, hookPid, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'blocked', pid: hookPid });
  arbiter.observeScreen(skipVerdict('claude'));
  assert.equal(arbiter.view().state, 'working');
  clock.advance(10);
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['idle', 'report']);
});

test('a full-lifecycle source decides the state while its agent lives, over the screen', () => {
  const { arbiter, tree } = paneWithAgent('shell', 150, 151);
  tree.spawn(300, 100, 'opencode');
  tree.spawn(301, 300);
  arbiter.observeProcess(agentRunning('opencode', 300, { fullLifecycleSources: ['plugin:opencode'] }));
  arbiter.reportAgent({ source: 'plugin:opencode', agent: 'opencode', state: 'working', session: 'root', pid: 301 });
  arbiter.observeScreen(verdict('opencode', 'idle', 'prompt_box'));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['working', 'full_lifecycle']);
});

test('a visible blocker wins over a full-lifecycle report, and the authority decides again once it is answered', () => {
  const { arbiter, tree } = paneWithAgent('shell', 150, 151);
  tree.spawn(300, 100, 'opencode');
  tree.spawn(301, 300);
  arbiter.observeProcess(agentRunning('opencode', 300, { fullLifecycleSources: ['plugin:opencode'] }));
  arbiter.reportAgent({ source: 'plugin:opencode', agent: 'opencode', state: 'working', session: 'root', pid: 301 });
  arbiter.observeScreen(verdict('opencode', 'blocked', 'permission_form'));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule, arbiter.view().source], ['blocked', 'screen_rule', 'screen:permission_form']);
  arbiter.reportAgent({ source: 'plugin:opencode', agent: 'opencode', state: 'idle', session: 'root', pid: 301 });
  assert.equal(arbiter.view().state, 'blocked', 'a later report does not hide the form either');
  arbiter.observeScreen(verdict('opencode', 'working', 'spinner'));
  arbiter.reportAgent({ source: 'plugin:opencode', agent: 'opencode', state: 'working', session: 'root', pid: 301 });
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['working', 'full_lifecycle']);
});

test('an ordinary hook source is not a full-lifecycle authority', () => {
  const { arbiter, hookPid } = paneWithAgent('claude', 200, 201, { debounceMs: 0 });
  arbiter.observeProcess(agentRunning('claude', 200, { fullLifecycleSources: ['plugin:other'] }));
  arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', pid: hookPid });
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt'));
  assert.equal(arbiter.view().rule, 'screen_rule');
});

test('full-lifecycle authority ends when its session ends', () => {
  const { arbiter, hookPid } = paneWithAgent('opencode', 300, 301, { debounceMs: 0 });
  arbiter.observeProcess(agentRunning('opencode', 300, { fullLifecycleSources: ['plugin:opencode'] }));
  arbiter.reportAgent({ source: 'plugin:opencode', agent: 'opencode', state: 'working', session: 'a', pid: hookPid });
  arbiter.observeScreen(verdict('opencode', 'idle', 'prompt_box'));
  assert.equal(arbiter.view().rule, 'full_lifecycle');
  const released = arbiter.releaseAgent({ source: 'plugin:opencode', session: 'a', pid: hookPid });
  assert.equal(released.accepted, true);
  assert.deepEqual([arbiter.view().rule, arbiter.view().state], ['screen_rule', 'idle']);
});

test('full-lifecycle authority ends when another session becomes current', () => {
  const { arbiter, hookPid } = paneWithAgent('opencode', 300, 301, { debounceMs: 0 });
  arbiter.observeProcess(agentRunning('opencode', 300, { fullLifecycleSources: ['plugin:opencode'] }));
  arbiter.reportAgent({ source: 'plugin:opencode', agent: 'opencode', state: 'working', session: 'a', pid: hookPid });
  arbiter.observeScreen(verdict('opencode', 'idle', 'prompt_box'));
  arbiter.reportSession({ source: 'hook:session', session: 'b', pid: hookPid });
  assert.equal(arbiter.view().rule, 'screen_rule');
});

test('full-lifecycle authority ends when its agent process exits', () => {
  const { arbiter, hookPid, tree, clock } = paneWithAgent('opencode', 300, 301);
  arbiter.observeProcess(agentRunning('opencode', 300, { fullLifecycleSources: ['plugin:opencode'] }));
  arbiter.reportAgent({ source: 'plugin:opencode', agent: 'opencode', state: 'working', pid: hookPid });
  tree.kill(300);
  tree.spawn(310, 100, 'opencode');
  arbiter.observeProcess(agentRunning('opencode', 310, { fullLifecycleSources: ['plugin:opencode'] }));
  arbiter.observeScreen(verdict('opencode', 'idle', 'prompt_box'));
  clock.advance(1000); // the new process's first idle waits out the start-up window
  arbiter.tick();
  assert.deepEqual([arbiter.view().rule, arbiter.view().state], ['screen_rule', 'idle']);
});

test('OSC 7501 program status is a self report of the foreground program', () => {
  const { arbiter } = paneWithAgent('codex', 300, 301);
  arbiter.observeOsc({ kind: 'programStatus', value: { state: 'working', fields: { app: 'codex' } } });
  assert.deepEqual([arbiter.view().state, arbiter.view().source], ['working', 'report:osc7501']);
  arbiter.observeOsc({ kind: 'programStatus', value: { state: 'clear', fields: {} } });
  assert.equal(arbiter.view().state, 'unknown');
});

test('OSC events that carry no report are ignored', () => {
  const { arbiter } = paneWithAgent('codex', 300, 301);
  assert.equal(arbiter.observeOsc({ kind: 'title', value: 'hello' }), null);
  assert.equal(arbiter.observeOsc(userVar('x', 'WEZTERM_PROG')), null);
});

test('a self report with an unknown state drives no indicator', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=pondering'));
  assert.equal(arbiter.view().state, 'unknown');
});

test('a new shell prompt drops a working or blocked OSC 7501 status, but not idle', () => {
  const { arbiter } = paneWithAgent('codex', 300, 301);
  arbiter.observeOsc({ kind: 'programStatus', value: { state: 'working', fields: { app: 'codex' } } });
  const outcome = arbiter.observeOsc({ kind: 'promptMark', mark: 'A', exitCode: null });
  assert.equal(outcome?.changes.length, 1);
  assert.equal(arbiter.view().state, 'unknown');
  arbiter.observeOsc({ kind: 'programStatus', value: { state: 'done', fields: { app: 'codex' } } });
  assert.equal(arbiter.observeOsc({ kind: 'promptMark', mark: 'A', exitCode: null }), null);
  assert.equal(arbiter.view().state, 'idle');
});

test('an OSC 7501 clear with nothing to clear is not a rejection', () => {
  const { arbiter } = paneWithAgent('codex', 300, 301);
  assert.equal(arbiter.observeOsc({ kind: 'programStatus', value: { state: 'clear', fields: {} } }), null);
  assert.deepEqual(arbiter.explain().rejections, []);
});
