import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextRing } from '../../src/terminal/text-ring.ts';

const encoder = new TextEncoder();

function push(ring: TextRing, text: string): void {
  const bytes = encoder.encode(text);
  ring.push(bytes, bytes.length);
}

function lines(ring: TextRing): string[] {
  return Array.from({ length: ring.length }, (_, i) => ring.at(i));
}

/** A small deterministic generator, so a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

test('a text ring keeps the newest lines, oldest first, as the text pushed', () => {
  const ring = new TextRing(3);
  assert.equal(ring.length, 0);
  assert.equal(ring.at(0), '');
  push(ring, 'one');
  push(ring, '');
  push(ring, 'café 漢字 😀');
  assert.deepEqual(lines(ring), ['one', '', 'café 漢字 😀']);
  push(ring, '\ufeffbom');
  assert.deepEqual(lines(ring), ['', 'café 漢字 😀', '\ufeffbom']);
  assert.equal(ring.at(3), '');
  assert.equal(ring.at(-1), '');
  ring.dropNewest(2);
  assert.deepEqual(lines(ring), ['']);
  push(ring, 'after');
  assert.deepEqual(lines(ring), ['', 'after']);
  ring.clear();
  assert.deepEqual(lines(ring), []);
  assert.equal(ring.byteCapacity, 0);
  push(ring, 'again');
  assert.deepEqual(lines(ring), ['again']);
  assert.deepEqual(lines(new TextRing(0)), []);
});

test('a text ring reads the same as an array of its lines through wraps, growth, drops and clears', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const next = random(seed);
    const capacity = 1 + Math.floor(next() * 200);
    const ring = new TextRing(capacity);
    let model: string[] = [];
    for (let step = 0; step < 5000; step++) {
      const roll = next();
      if (roll < 0.005) {
        ring.clear();
        model = [];
      } else if (roll < 0.02) {
        const count = Math.floor(next() * (model.length + 2));
        ring.dropNewest(count);
        model = model.slice(0, Math.max(0, model.length - count));
      } else {
        // Mostly short lines, some empty, now and then one far longer than the rest.
        const length = next() < 0.1 ? 0 : next() < 0.02 ? 3000 + Math.floor(next() * 3000) : Math.floor(next() * 120);
        const line = `${step}:`.padEnd(length, String.fromCharCode(0x61 + (step % 26))) + (step % 7 === 0 ? 'é漢😀' : '');
        push(ring, line);
        model.push(line);
        if (model.length > capacity) model.shift();
      }
      assert.equal(ring.length, model.length, `seed ${seed} step ${step}: length`);
      if (step % 97 === 0 || step > 4990) assert.deepEqual(lines(ring), model, `seed ${seed} step ${step}: lines`);
    }
    // The buffer stays near the bytes held, not everything ever pushed.
    const held = model.reduce((sum, line) => sum + encoder.encode(line).length, 0);
    assert.ok(ring.byteCapacity <= Math.max(4096, 3 * (held + 6000 * 4)), `seed ${seed}: ${ring.byteCapacity} bytes for ${held}`);
  }
});
