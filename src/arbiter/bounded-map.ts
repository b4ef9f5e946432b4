/** A Map that forgets its oldest entries beyond a fixed size; every per-pane history uses one. */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): void {
    this.#entries.delete(key); // re-inserting moves the key to the newest end
    this.#entries.set(key, value);
    while (this.#entries.size > this.#limit) {
      const oldest = this.#entries.keys().next().value as K;
      this.#entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  values(): IterableIterator<V> {
    return this.#entries.values();
  }

  /** Oldest first, so that setting them again in order keeps the same order. */
  entries(): Array<[K, V]> {
    return [...this.#entries.entries()];
  }
}
