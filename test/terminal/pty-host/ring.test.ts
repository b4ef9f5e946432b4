import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OutputRing } from '../../../src/terminal/pty-host/ring.ts';

test('the ring keeps the newest output within its limit and counts what it dropped', () => {
  const ring = new OutputRing(64 * 1024);
  for (let i = 0; i < 1000; i += 1) ring.push(Buffer.from(`line ${String(i).padStart(4, '0')} ${'x'.repeat(90)}\n`));
  assert.ok(ring.size <= 64 * 1024, `size ${ring.size}`);
  assert.equal(ring.size + ring.dropped, 1000 * 101);
  const text = ring.contents().toString('utf8');
  assert.ok(text.endsWith(`line 0999 ${'x'.repeat(90)}\n`), 'the newest line is kept whole');
  assert.ok(!text.includes('line 0000'), 'the oldest is dropped first');
});

test('one chunk over the limit keeps only its tail', () => {
  const ring = new OutputRing(1000);
  ring.push(Buffer.from('a'.repeat(5000) + 'END'));
  assert.equal(ring.size, 1000);
  assert.equal(ring.dropped, 4003);
  assert.ok(ring.contents().toString('utf8').endsWith('aEND'));
});

test('many tiny writes are joined rather than kept one object each', () => {
  const ring = new OutputRing(1024 * 1024);
  for (let i = 0; i < 100_000; i += 1) ring.push(Buffer.from('.'));
  assert.equal(ring.size, 100_000);
  assert.equal(ring.contents().length, 100_000);
});

test('a dropped chunk is let go at once: memory stays within the limit however much went through', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const limit = 1024 * 1024;
  const ring = new OutputRing(limit);
  const chunk = 'x'.repeat(16 * 1024);
  gc();
  const before = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 2000; i += 1) ring.push(Buffer.from(chunk)); // 31 MiB through a 1 MiB ring, a buffer per read
  // V8 frees the buffers of a collection on a background thread and counts them gone only once
  // done; the next collection waits for that first, so after two the count is exact.
  gc();
  gc();
  const held = process.memoryUsage().arrayBuffers - before;
  assert.equal(ring.size, limit);
  // What the ring keeps, and room for the allocator's pooled slabs; 1024 dropped chunks held would be 16 MiB.
  assert.ok(held < 4 * limit, `the ring holds ${held} bytes of buffers`);
});
