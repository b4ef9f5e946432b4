import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { AllocatorTrim, TRIM_AGAIN_CHECKS } from '../../src/terminal/allocator-trim.ts';
import { reduceHeap, trimAllocator } from '../../src/terminal/native.ts';

test('the allocator is trimmed at the first quiet check after output and once more later, never while busy', () => {
  let trims = 0;
  let reductions = 0;
  const trimmer = new AllocatorTrim(() => (trims += 1), null, () => (reductions += 1));
  trimmer.check();
  assert.equal(trims, 0, 'nothing to give back before any output');
  for (let i = 0; i < 5; i++) {
    trimmer.noteActivity();
    trimmer.check();
  }
  assert.equal(trims, 0, 'busy at every check');
  trimmer.check();
  assert.equal(trims, 1, 'the first quiet check');
  assert.equal(reductions, 1, 'the heap is asked back with the first trim');
  for (let i = 1; i < TRIM_AGAIN_CHECKS; i++) trimmer.check();
  assert.equal(trims, 1);
  trimmer.check();
  assert.equal(trims, 2, 'once more, after V8 had time to collect');
  assert.equal(reductions, 1, 'the heap only once');
  for (let i = 0; i < 3 * TRIM_AGAIN_CHECKS; i++) trimmer.check();
  assert.equal(trims, 2, 'and then not again until there is output');
  trimmer.noteActivity();
  trimmer.check();
  trimmer.check();
  assert.equal(trims, 3);
  assert.equal(reductions, 2);
  trimmer.dispose();
});

test('the native trim runs', () => {
  assert.equal(typeof trimAllocator(), 'boolean');
});

test('asking V8 for its heap back shrinks a grown young generation', async () => {
  const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
  // Young garbage with survivors grows the young generation past its initial size.
  let kept: object[][] = [];
  for (let round = 0; round < 400 && newSpace() <= 2 * 2 ** 20; round += 1) {
    kept.push(Array.from({ length: 5000 }, (_, i) => ({ i })));
    if (kept.length > 20) kept = kept.slice(10);
  }
  const grown = newSpace();
  assert.ok(grown > 2 * 2 ** 20, `the young generation grew (${grown} bytes)`);
  kept = [];
  reduceHeap();
  // The collection is incremental: it ends in tasks between turns of the loop.
  for (let turn = 0; turn < 500 && newSpace() >= grown; turn += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(newSpace() < grown, `the young generation shrank (${grown} to ${newSpace()} bytes)`);
});
