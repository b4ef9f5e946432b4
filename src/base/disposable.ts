/** Something that holds a resource (a listener, a timer, a child) until it is disposed. */
export interface Disposable {
  dispose(): void;
}

/** A disposable that runs `dispose` once, however often it is called. */
export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/**
 * Owns disposables and disposes them together, newest first, so a part is torn down before what it
 * was built on. Whatever is added after the store was disposed is disposed at once: a late
 * registration never outlives its owner. One disposable that throws never stops the rest; its error
 * goes to `onError`, or without one the first error is thrown once all have been disposed.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  constructor(private readonly onError?: (error: unknown) => void) {}

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(disposable: T): T {
    if (this.disposed) this.disposeAll([disposable]);
    else this.items.push(disposable);
    return disposable;
  }

  /** Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeAll(this.items.splice(0).reverse());
  }

  private disposeAll(disposables: readonly Disposable[]): void {
    const errors: unknown[] = [];
    for (const disposable of disposables) {
      try {
        disposable.dispose();
      } catch (error) {
        if (this.onError) this.onError(error);
        else errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}
