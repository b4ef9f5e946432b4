import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paneWithAgent, verdict, userVar } from './harness.ts';

test('a screen-inferred working to idle waits 450 ms for the screen to confirm', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  assert.deepEqual(arbiter.observeScreen(verdict('claude', 'idle', 'prompt')), []);
  assert.equal(arbiter.view().state, 'working');
  assert.equal(arbiter.nextDeadline(), clock.now() + 450);
  clock.advance(449);
  assert.deepEqual(arbiter.tick(), []);
  clock.advance(1);
  const changes = arbiter.tick();
  assert.equal(changes.length, 1);
  assert.equal(arbiter.view().state, 'idle');
  assert.equal(arbiter.nextDeadline(), null);
});

test('a screen-inferred transition leaving blocked is debounced', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'blocked', 'permission_form'));
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  assert.equal(arbiter.view().state, 'blocked');
  clock.advance(450);
  arbiter.tick();
  assert.equal(arbiter.view().state, 'working');
});

test('a half-drawn frame that the next frame contradicts never publishes', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'blocked', 'permission_form'));
  arbiter.observeScreen(verdict('claude', 'idle', null));
  clock.advance(200);
  assert.deepEqual(arbiter.observeScreen(verdict('claude', 'blocked', 'permission_form')), []);
  clock.advance(1000);
  assert.deepEqual(arbiter.tick(), []);
  assert.equal(arbiter.view().state, 'blocked');
  assert.equal(arbiter.explain().pendingDebounce, null);
});

test('repeated confirming frames keep the first deadline', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt'));
  const deadline = arbiter.nextDeadline();
  clock.advance(300);
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt'));
  assert.equal(arbiter.nextDeadline(), deadline);
  clock.advance(150);
  assert.equal(arbiter.observeScreen(verdict('claude', 'idle', 'prompt')).length, 1);
});

test('transitions into working or blocked from the screen are not debounced', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt'));
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  assert.equal(arbiter.view().state, 'working');
  arbiter.observeScreen(verdict('claude', 'blocked', 'permission_form'));
  assert.equal(arbiter.view().state, 'blocked');
});

test('explicit reports are not debounced', () => {
  const { arbiter } = paneWithAgent('claude');
  arbiter.observeOsc(userVar('v1;agent=claude;state=working'));
  arbiter.observeOsc(userVar('v1;agent=claude;state=idle'));
  assert.equal(arbiter.view().state, 'idle');
});

test('the debounce window is configurable', () => {
  const { arbiter, clock } = paneWithAgent('claude', 200, 201, { debounceMs: 100 });
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt'));
  clock.advance(100);
  arbiter.tick();
  assert.equal(arbiter.view().state, 'idle');
});

test('explain shows the pending debounce with its deadline', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt'));
  clock.advance(100);
  const pending = arbiter.explain().pendingDebounce;
  assert.deepEqual(pending && { state: pending.state, remainingMs: pending.remainingMs }, { state: 'idle', remainingMs: 350 });
});

test('a half-erased frame on which no rule matches never publishes unknown while the next frame is working again', () => {
  // Qwen Code 0.15 redraws without synchronized output: erase, then rewrite, in separate reads.
  const { arbiter, clock } = paneWithAgent('qwen');
  arbiter.observeScreen(verdict('qwen', 'working', 'spinner'));
  for (let frame = 0; frame < 4; frame += 1) {
    assert.deepEqual(arbiter.observeScreen(verdict('qwen', 'unknown', null)), []);
    clock.advance(5);
    assert.deepEqual(arbiter.observeScreen(verdict('qwen', 'working', 'spinner')), []);
  }
  clock.advance(1000);
  assert.deepEqual(arbiter.tick(), []);
  assert.equal(arbiter.view().state, 'working');
});

test('a screen that loses every rule for longer than the window does become unknown', () => {
  const { arbiter, clock } = paneWithAgent('qwen');
  arbiter.observeScreen(verdict('qwen', 'working', 'spinner'));
  arbiter.observeScreen(verdict('qwen', 'unknown', null));
  assert.equal(arbiter.view().state, 'working');
  clock.advance(450);
  assert.equal(arbiter.tick().length, 1);
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['unknown', 'screen_fallback']);
});

test('a turn that ends through a stretch of unknown is still done until seen', () => {
  const { arbiter, clock } = paneWithAgent('qwen');
  arbiter.observeScreen(verdict('qwen', 'working', 'spinner'));
  arbiter.observeScreen(verdict('qwen', 'unknown', null));
  clock.advance(450);
  arbiter.tick();
  assert.equal(arbiter.view().state, 'unknown');
  arbiter.observeScreen(verdict('qwen', 'idle', 'prompt'));
  assert.deepEqual([arbiter.view().state, arbiter.view().displayed, arbiter.view().seen], ['idle', 'done', false]);
});

test('the first idle of a new agent process holds for the start-up window before it is published', () => {
  // Gemini CLI 0.61 draws its idle composer 0.3 to 0.5 s before its folder-trust dialog replaces it.
  const { arbiter, clock } = paneWithAgent('gemini');
  assert.deepEqual(arbiter.observeScreen(verdict('gemini', 'idle', 'title_ready')), []);
  assert.equal(arbiter.nextDeadline(), clock.now() + 1000);
  clock.advance(400);
  const changes = arbiter.observeScreen(verdict('gemini', 'blocked', 'folder_trust_dialog'));
  assert.deepEqual(changes.map((c) => [c.before.state, c.after.state]), [['unknown', 'blocked']]);
  clock.advance(2000);
  assert.deepEqual(arbiter.tick(), [], 'the early idle is never published');
});

test('a first idle that holds is published after the start-up window, and a later idle waits only the debounce', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt_box'));
  clock.advance(999);
  assert.deepEqual(arbiter.tick(), []);
  clock.advance(1);
  assert.equal(arbiter.tick().length, 1);
  assert.equal(arbiter.view().state, 'idle');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner'));
  arbiter.observeScreen(verdict('claude', 'idle', 'prompt_box'));
  assert.equal(arbiter.nextDeadline(), clock.now() + 450);
});
