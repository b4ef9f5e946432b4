/**
 * One read per key at a time: a key asked for while its read runs is read once more after it, however
 * often it was asked meanwhile, so a burst of events about one pane costs the read in flight and one
 * more. `read` handles its own errors; a rejection only ends that read.
 */
export class SerialReads {
  /** Keys being read, each with who waits for the read after it (null: nobody asked again yet). */
  private readonly running = new Map<string, Array<() => void> | null>();

  constructor(private readonly read: (key: string) => Promise<unknown>) {}

  /** Whether a read of `key` is under way. */
  has(key: string): boolean {
    return this.running.has(key);
  }

  /** Reads `key` now, or once more after the read under way; resolves when the read asked for has ended. */
  request(key: string): Promise<void> {
    if (this.running.has(key)) {
      return new Promise((resolve) => this.running.set(key, [...(this.running.get(key) ?? []), resolve]));
    }
    this.running.set(key, null);
    return this.read(key).then(
      () => this.next(key),
      () => this.next(key),
    );
  }

  private next(key: string): void {
    const waiting = this.running.get(key);
    this.running.delete(key);
    if (waiting) void this.request(key).then(() => waiting.forEach((resolve) => resolve()));
  }
}
