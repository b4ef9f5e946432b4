import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMap } from '../../src/arbiter/bounded-map.ts';
import { paneWithAgent, shellOnly } from './harness.ts';

test('a bounded map forgets its oldest entries beyond its limit', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1);
  map.set('b', 2);
  map.set('a', 3); // refreshes a
  map.set('c', 4);
  assert.deepEqual([map.has('a'), map.has('b'), map.has('c')], [true, false, true]);
});

test('a pane remembers at most historySize sessions', () => {
  const { arbiter, tree } = paneWithAgent('claude', 200, 201, { historySize: 2 });
  for (const session of ['s1', 's2', 's3']) arbiter.reportAgent({ source: 'hook:claude', agent: 'claude', state: 'working', session, pid: 201 });
  tree.kill(200);
  arbiter.observeProcess(shellOnly(100));
  // s1 fell out of the history, so its late report is no longer recognised as stale; s3 still is.
  assert.equal(arbiter.reportAgent({ source: 'hook:x', agent: 'x', state: 'idle', session: 's3' }).reason, 'stale_generation');
  assert.equal(arbiter.reportAgent({ source: 'hook:x', agent: 'x', state: 'idle', session: 's1' }).accepted, true);
});
