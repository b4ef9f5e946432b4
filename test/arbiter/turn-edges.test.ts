import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeRecord } from '../../src/arbiter/index.ts';
import { paneWithAgent, verdict } from './harness.ts';

const dones = (changes: ChangeRecord[]) => changes.filter((change) => change.after.displayed === 'done' && change.before.displayed !== 'done');

test('the last turn\'s Stop does not read as done in a half-drawn frame as the next turn starts', () => {
  const { arbiter, hookPid, clock } = paneWithAgent('qwen');
  arbiter.observeScreen(verdict('qwen', 'working', 'esc_to_cancel_indicator'));
  arbiter.reportAgent({ source: 'hook:qwen', agent: 'qwen', state: 'idle', pid: hookPid });
  arbiter.observeScreen(verdict('qwen', 'idle', 'empty_prompt'));
  clock.advance(450);
  arbiter.tick();
  assert.equal(arbiter.view().displayed, 'done');
  arbiter.markSeen();
  const changes: ChangeRecord[] = [];
  changes.push(...arbiter.observeScreen(verdict('qwen', 'working', 'esc_to_cancel_indicator')));
  clock.advance(5);
  changes.push(...arbiter.observeScreen(verdict('qwen', 'unknown', null)));
  assert.equal(arbiter.view().state, 'working', 'the Stop report is older than the working screen');
  clock.advance(10);
  changes.push(...arbiter.observeScreen(verdict('qwen', 'working', 'esc_to_cancel_indicator')));
  clock.advance(1000);
  changes.push(...arbiter.tick());
  assert.deepEqual(changes.map((change) => change.after.displayed), ['working']);
  assert.match(arbiter.explain().evidence.find((entry) => entry.source === 'hook:qwen')?.note ?? '', /the screen showed working since/);
});

test('a late hook after an Esc does not give the turn a second done', () => {
  const { arbiter, hookPid, clock } = paneWithAgent('qwen');
  const changes: ChangeRecord[] = [];
  changes.push(...arbiter.observeScreen(verdict('qwen', 'working', 'esc_to_cancel_indicator')));
  changes.push(...arbiter.observeScreen(verdict('qwen', 'idle', 'empty_prompt')));
  clock.advance(450);
  changes.push(...arbiter.tick());
  assert.equal(arbiter.view().displayed, 'done');
  clock.advance(30);
  changes.push(...arbiter.reportAgent({ source: 'hook:qwen', agent: 'qwen', state: 'working', pid: hookPid }).changes);
  changes.push(...arbiter.observeScreen(verdict('qwen', 'unknown', null)));
  assert.equal(arbiter.view().displayed, 'done', 'the hook contradicts the idle screen: it waits for the next whole frame');
  clock.advance(20);
  changes.push(...arbiter.observeScreen(verdict('qwen', 'idle', 'empty_prompt')));
  clock.advance(2000);
  changes.push(...arbiter.tick());
  assert.equal(dones(changes).length, 1);
  assert.deepEqual(changes.map((change) => change.after.displayed), ['working', 'done']);
});

test('a report the next whole frame confirms counts from when it arrived', () => {
  const { arbiter, hookPid, clock } = paneWithAgent('qwen');
  arbiter.observeScreen(verdict('qwen', 'working', 'esc_to_cancel_indicator'));
  arbiter.reportAgent({ source: 'hook:qwen', agent: 'qwen', state: 'idle', pid: hookPid });
  arbiter.observeScreen(verdict('qwen', 'unknown', null));
  assert.equal(arbiter.view().state, 'working');
  const deadline = arbiter.nextDeadline();
  clock.advance(200);
  arbiter.observeScreen(verdict('qwen', 'idle', 'empty_prompt'));
  assert.equal(arbiter.nextDeadline(), deadline, 'the idle frame keeps the deadline the report started');
  clock.advance(250);
  assert.equal(dones(arbiter.tick()).length, 1);
});

test('a prompt submitted by hook before the screen shows it starts the turn as soon as the screen does', () => {
  const { arbiter, hookPid, clock } = paneWithAgent('qwen');
  arbiter.observeScreen(verdict('qwen', 'working', 'esc_to_cancel_indicator'));
  arbiter.observeScreen(verdict('qwen', 'idle', 'empty_prompt'));
  clock.advance(450);
  arbiter.tick();
  arbiter.reportAgent({ source: 'hook:qwen', agent: 'qwen', state: 'working', pid: hookPid });
  arbiter.observeScreen(verdict('qwen', 'unknown', null));
  assert.deepEqual(arbiter.observeScreen(verdict('qwen', 'working', 'esc_to_cancel_indicator')).map((change) => change.after.state), ['working']);
});
