// A program's own report of working against a screen cue it also draws through a turn: Claude Code
// 2.1.332 keeps its prompt box under a streaming answer and sends OSC 7501 state=working at the
// turn's start (test/fixtures/streams/claude/2.1.332/70x20-turns/screens.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Verdict } from '../../src/detect/types.ts';
import { paneWithAgent, SECOND, verdict } from './harness.ts';

const working = { kind: 'programStatus' as const, value: { state: 'working' as const, fields: { app: 'claude' } } };
const idle = { kind: 'programStatus' as const, value: { state: 'idle' as const, fields: { app: 'claude' } } };

function promptBox(screenChangedAt: number): Verdict {
  const base = verdict('claude', 'idle', 'prompt_box');
  return { ...base, rule: { ...base.rule!, weak: true }, screenChangedAt };
}

test('a pushed working outranks a weak screen idle while the screen moves', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(promptBox(clock.now()));
  arbiter.observeOsc(working);
  assert.deepEqual([arbiter.view().state, arbiter.view().rule, arbiter.view().source], ['working', 'pushed_working', 'report:osc7501']);
  clock.advance(3 * SECOND);
  arbiter.observeScreen(promptBox(clock.now()));
  assert.equal(arbiter.view().state, 'working', 'the answer still grows above the prompt box');
});

test('a pushed working does not outrank a strong screen idle or a visible blocker', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeOsc(working);
  arbiter.observeScreen(verdict('claude', 'blocked', 'auto_mode_check_dialog'));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['blocked', 'screen_rule']);
  clock.advance(SECOND);
  arbiter.observeScreen({ ...verdict('claude', 'idle', 'settings_menu'), screenChangedAt: clock.now() });
  clock.advance(SECOND);
  arbiter.tick();
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['idle', 'screen_rule'], 'only a weak idle yields');
});

test('the program\'s own idle ends it at once', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(promptBox(clock.now()));
  arbiter.observeOsc(working);
  arbiter.observeOsc(idle);
  clock.advance(SECOND);
  arbiter.tick();
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['idle', 'screen_rule']);
});

test('a still screen past the quiet window lets the weak idle speak (an Esc the hooks never saw)', () => {
  const { arbiter, clock } = paneWithAgent('claude', 200, 201, { pushedQuietMs: 5000 });
  const changedAt = clock.now();
  arbiter.observeScreen(promptBox(changedAt));
  arbiter.observeOsc(working);
  assert.equal(arbiter.view().state, 'working');
  assert.equal(arbiter.nextDeadline(), changedAt + 5001, 'the arbiter looks again when the window closes');
  clock.advance(5001);
  arbiter.tick();
  clock.advance(SECOND);
  arbiter.tick();
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['idle', 'screen_rule']);
});

test('a pushed working keeps a turn but does not start one over a published idle (a hook late after an Esc)', () => {
  const { arbiter, clock } = paneWithAgent('claude');
  arbiter.observeScreen(verdict('claude', 'working', 'spinner_line'));
  arbiter.observeScreen(promptBox(clock.now()));
  clock.advance(450);
  arbiter.tick();
  assert.equal(arbiter.view().displayed, 'done');
  clock.advance(100);
  arbiter.observeOsc(working);
  arbiter.observeScreen(promptBox(clock.now()));
  assert.deepEqual([arbiter.view().displayed, arbiter.view().rule], ['done', 'screen_rule']);
  arbiter.observeScreen(verdict('claude', 'working', 'spinner_line'));
  assert.equal(arbiter.view().state, 'working', 'the next turn starts with its spinner');
  arbiter.observeScreen(promptBox(clock.now()));
  assert.deepEqual([arbiter.view().state, arbiter.view().rule], ['working', 'pushed_working'], 'and the report keeps it');
});
