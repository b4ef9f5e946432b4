import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SerialReads } from '../../src/base/serial-reads.ts';

/** A read that ends when told to, counting how many ran. */
function gate() {
  const ends: Array<() => void> = [];
  const started: string[] = [];
  const read = (key: string) => {
    started.push(key);
    return new Promise<void>((resolve) => ends.push(resolve));
  };
  return { read, started, end: () => ends.shift()!() };
}

describe('SerialReads', () => {
  it('folds every request during a read into one more read, and resolves each when its read ended', async () => {
    const { read, started, end } = gate();
    const reads = new SerialReads(read);
    const first = reads.request('a');
    const later = [reads.request('a'), reads.request('a'), reads.request('a')];
    assert.deepEqual(started, ['a']);
    assert.equal(reads.has('a'), true);
    end();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, ['a', 'a'], 'one more read for the three requests');
    end();
    await Promise.all(later);
    assert.equal(reads.has('a'), false);
  });

  it('reads other keys at once, and goes on after a read that failed', async () => {
    let calls = 0;
    const reads = new SerialReads(async (key) => {
      calls += 1;
      if (key === 'bad') throw new Error('gone');
    });
    await Promise.all([reads.request('bad'), reads.request('good')]);
    await reads.request('bad');
    assert.equal(calls, 3);
  });
});
