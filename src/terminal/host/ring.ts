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
  private total = 0;
  /** Bytes dropped from the head since the pane started. */
  dropped = 0;

  constructor(readonly limit: number = RING_BYTES) {}

  get size(): number {
    return this.total;
  }

  push(data: string): void {
    const chunk = Buffer.from(data, 'utf8');
    const last = this.chunks.length > this.head ? this.chunks[this.chunks.length - 1] : null;
    // Small chunks are joined, so a pane that prints a byte at a time does not cost an object per byte.
    if (last !== null && last.length + chunk.length <= JOIN_BELOW_BYTES) this.chunks[this.chunks.length - 1] = Buffer.concat([last, chunk]);
    else this.chunks.push(chunk);
    this.total += chunk.length;
    while (this.total > this.limit && this.head < this.chunks.length - 1) {
      const old = this.chunks[this.head];
      // Let go of a dropped chunk at once: slots before `head` are compacted away only now and then,
      // and up to 1024 chunks of 16 KiB held there were 16 MiB per pane beyond the limit.
      this.chunks[this.head++] = EMPTY;
      this.total -= old.length;
      this.dropped += old.length;
    }
    // A single chunk over the limit keeps only its tail.
    if (this.total > this.limit) {
      const last = this.chunks[this.head];
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

  /** Everything kept, oldest first. */
  contents(): Buffer {
    return Buffer.concat(this.chunks.slice(this.head), this.total);
  }
}
