import type { Disposable } from '../terminal/types.ts';

/** A set of listeners where each registration is a disposable. One throwing listener never stops the rest. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  add(listener: (value: T) => void): Disposable {
    this.set.add(listener);
    return { dispose: () => void this.set.delete(listener) };
  }

  fire(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  clear(): void {
    this.set.clear();
  }
}
