import type { Disposable } from './disposable.ts';

/** Subscribes a listener; the returned disposable unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** Where a throwing listener's error goes when its emitter was given no handler. */
export function logListenerError(error: unknown): void {
  console.error('a listener threw:', error);
}

/**
 * One kind of event and its listeners. Each subscription is its own registration, disposed on its own.
 * `fire` calls the listeners subscribed when it began, in order; one that throws is isolated: its error
 * goes to `onListenerError` and the rest are still called.
 */
export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<{ listener: (value: T) => void }>();
  private disposed = false;

  constructor(private readonly onListenerError: (error: unknown) => void = logListenerError) {}

  /** Subscribes; after the emitter was disposed this subscribes nothing. */
  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => {} };
    const entry = { listener };
    this.listeners.add(entry);
    return { dispose: () => void this.listeners.delete(entry) };
  };

  get size(): number {
    return this.listeners.size;
  }

  fire(value: T): void {
    for (const { listener } of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  /** Drops every listener; later subscriptions subscribe nothing. Safe to call twice. */
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}
