import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AllocatorTrim, TRIM_AGAIN_CHECKS } from '../../src/terminal/allocator-trim.ts';
import { trimAllocator } from '../../src/terminal/native.ts';

test('the allocator is trimmed at the first quiet check after output and once more later, never while busy', () => {
  let trims = 0;
  const trimmer = new AllocatorTrim(() => (trims += 1), null);
  trimmer.check();
  assert.equal(trims, 0, 'nothing to give back before any output');
  for (let i = 0; i < 5; i++) {
    trimmer.noteActivity();
    trimmer.check();
  }
  assert.equal(trims, 0, 'busy at every check');
  trimmer.check();
  assert.equal(trims, 1, 'the first quiet check');
  for (let i = 1; i < TRIM_AGAIN_CHECKS; i++) trimmer.check();
  assert.equal(trims, 1);
  trimmer.check();
  assert.equal(trims, 2, 'once more, after V8 had time to collect');
  for (let i = 0; i < 3 * TRIM_AGAIN_CHECKS; i++) trimmer.check();
  assert.equal(trims, 2, 'and then not again until there is output');
  trimmer.noteActivity();
  trimmer.check();
  trimmer.check();
  assert.equal(trims, 3);
  trimmer.dispose();
});

test('the native trim runs', () => {
  assert.equal(typeof trimAllocator(), 'boolean');
});
