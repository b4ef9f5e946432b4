import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DisposableStore, toDisposable } from '../../src/base/disposable.ts';

describe('DisposableStore', () => {
  it('disposes what it holds newest first', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('first')));
    store.add(toDisposable(() => order.push('second')));
    store.dispose();
    assert.deepEqual(order, ['second', 'first']);
  });

  it('disposes at once what is added after it was disposed', () => {
    const store = new DisposableStore();
    store.dispose();
    let disposed = false;
    store.add(toDisposable(() => (disposed = true)));
    assert.equal(disposed, true);
    assert.equal(store.isDisposed, true);
  });

  it('disposes each thing once when disposed twice', () => {
    let count = 0;
    const store = new DisposableStore();
    store.add({ dispose: () => count++ });
    store.dispose();
    store.dispose();
    assert.equal(count, 1);
  });

  it('disposes the rest when one throws and hands the error to its handler', () => {
    const errors: unknown[] = [];
    const order: string[] = [];
    const store = new DisposableStore((error) => errors.push(error));
    store.add(toDisposable(() => order.push('first')));
    store.add(toDisposable(() => {
      throw new Error('broken');
    }));
    store.add(toDisposable(() => order.push('third')));
    store.dispose();
    assert.deepEqual(order, ['third', 'first']);
    assert.deepEqual(errors.map((error) => (error as Error).message), ['broken']);
  });

  it('without a handler throws the first error after disposing the rest', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('first')));
    store.add(toDisposable(() => {
      throw new Error('broken');
    }));
    assert.throws(() => store.dispose(), /broken/);
    assert.deepEqual(order, ['first']);
  });
});

describe('toDisposable', () => {
  it('runs its function once however often it is disposed', () => {
    let count = 0;
    const disposable = toDisposable(() => count++);
    disposable.dispose();
    disposable.dispose();
    assert.equal(count, 1);
  });
});
