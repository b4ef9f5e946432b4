import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OutputText } from '../../src/terminal/output-text.ts';

const bytes = (...values: number[]) => Buffer.from(values);
const GRIN = [0xf0, 0x9f, 0x98, 0x80]; // U+1F600

test('a character split over chunks comes out whole, at any split, whenever the listener comes', () => {
  const stream = Buffer.concat([Buffer.from('a€b'), bytes(...GRIN), Buffer.from('c')]);
  for (let first = 0; first <= stream.length; first++) {
    for (let second = first; second <= stream.length; second++) {
      const chunks = [stream.subarray(0, first), stream.subarray(first, second), stream.subarray(second)];
      for (let from = 0; from < 3; from++) {
        const text = new OutputText();
        let out = '';
        chunks.forEach((chunk, i) => (out += text.decode(chunk, i >= from) ?? ''));
        // A listener gets everything from the character its first chunk starts in, whole.
        let start = chunks.slice(0, from).reduce((sum, chunk) => sum + chunk.length, 0);
        while (start > 0 && start < stream.length && (stream[start]! & 0xc0) === 0x80) start--;
        assert.equal(out, stream.subarray(start).toString('utf8'), `split at ${first}/${second}, listening from chunk ${from}`);
      }
    }
  }
});

test('nothing is decoded while nobody listens', () => {
  const text = new OutputText();
  assert.equal(text.decode(Buffer.from('hello'), false), null);
  assert.equal(text.decode(Buffer.from('world'), true), 'world');
});
