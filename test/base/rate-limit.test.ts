import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimit } from '../../src/base/rate-limit.ts';

test('lets `burst` lines per key through each window and counts the ones it drops', () => {
  let now = 0;
  const limit = new RateLimit(2, 1000, () => now);
  assert.deepEqual([limit.admit('a'), limit.admit('a'), limit.admit('a'), limit.admit('a')], [0, 0, null, null]);
  assert.equal(limit.admit('b'), 0, 'keys are limited apart');
  now = 1000;
  assert.equal(limit.admit('a'), 2, 'the first line of a new window says how many were dropped');
  assert.equal(limit.admit('a'), 0);
  limit.forget('a');
  assert.equal(limit.admit('a'), 0);
});
