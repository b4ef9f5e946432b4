import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../src/base/emitter.ts';

describe('Emitter', () => {
  it('calls each listener in the order it subscribed', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    emitter.event((value) => seen.push(`a${value}`));
    emitter.event((value) => seen.push(`b${value}`));
    emitter.fire(1);
    assert.deepEqual(seen, ['a1', 'b1']);
  });

  it('stops calling a listener once its subscription is disposed', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const subscription = emitter.event((value) => seen.push(value));
    emitter.fire(1);
    subscription.dispose();
    emitter.fire(2);
    assert.deepEqual(seen, [1]);
    assert.equal(emitter.size, 0);
  });

  it('treats the same function subscribed twice as two registrations', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const listener = (value: number) => seen.push(value);
    const first = emitter.event(listener);
    emitter.event(listener);
    first.dispose();
    emitter.fire(1);
    assert.deepEqual(seen, [1]);
  });

  it('isolates a throwing listener: the error goes to the handler and the rest still run', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((error) => errors.push(error));
    const seen: number[] = [];
    emitter.event(() => {
      throw new Error('broken listener');
    });
    emitter.event((value) => seen.push(value));
    emitter.fire(7);
    assert.deepEqual(seen, [7]);
    assert.deepEqual(errors.map((error) => (error as Error).message), ['broken listener']);
  });

  it('calls the listeners subscribed when fire began, even one removed meanwhile', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    let second: { dispose(): void } | undefined;
    emitter.event(() => {
      second?.dispose();
      emitter.event(() => seen.push('late'));
    });
    second = emitter.event(() => seen.push('second'));
    emitter.fire(1);
    assert.deepEqual(seen, ['second']);
  });

  it('drops every listener when disposed and subscribes nothing after', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    emitter.event((value) => seen.push(value));
    emitter.dispose();
    emitter.event((value) => seen.push(value));
    emitter.fire(1);
    assert.deepEqual(seen, []);
    assert.equal(emitter.size, 0);
  });
});
