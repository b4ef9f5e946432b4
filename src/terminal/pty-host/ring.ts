/** Recent raw output the host keeps per pane, replayed into a fresh emulator when a daemon attaches. */
export const RING_BYTES = 1024 * 1024;

const JOIN_BELOW_BYTES = 16 * 1024;
const EMPTY = Buffer.alloc(0);

/**
 * A bounded queue of output chunks: the oldest whole chunks are dropped first once the total
 * passes the limit, and the bytes dropped are counted.
 */
export class OutputRing {
  private chunks: Buffer[] = [];
  private head = 0;
  /** Small chunks not joined yet, newest last, and their bytes. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  /** Bytes dropped from the head since the pane started. */
  dropped = 0;

  constructor(readonly limit: number = RING_BYTES) {}

  get size(): number {
    return this.total;
  }

  /** Keeps `chunk` (not a copy): the caller does not change it afterwards. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    // Small chunks are joined, so a pane that prints a byte at a time does not cost an object per
    // byte; they are joined once per JOIN_BELOW_BYTES, not into the last chunk at every push (a
    // buffer grown a little at each of 1,200 lines left about 1 MiB of fragments in the allocator).
    if (chunk.length >= JOIN_BELOW_BYTES) {
      this.seal();
      this.chunks.push(chunk);
    } else {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes >= JOIN_BELOW_BYTES) this.seal();
    }
    if (this.total > this.limit) this.trim();
  }

  /** Everything kept, oldest first. */
  contents(): Buffer {
    return Buffer.concat([...this.chunks.slice(this.head), ...this.pending], this.total);
  }

  private seal(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  private trim(): void {
    this.seal();
    while (this.total > this.limit && this.head < this.chunks.length - 1) {
      const old = this.chunks[this.head]!;
      // Let go of a dropped chunk at once: slots before `head` are compacted away only now and then,
      // and up to 1024 chunks of 16 KiB held there were 16 MiB per pane beyond the limit.
      this.chunks[this.head++] = EMPTY;
      this.total -= old.length;
      this.dropped += old.length;
    }
    // A single chunk over the limit keeps only its tail.
    if (this.total > this.limit) {
      const last = this.chunks[this.head]!;
      const cut = last.length - this.limit;
      this.chunks[this.head] = last.subarray(cut);
      this.total -= cut;
      this.dropped += cut;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}
