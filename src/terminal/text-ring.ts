/** Decodes a line; ignoreBOM keeps a leading U+FEFF as text (by default the decoder would drop it). */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The fewest bytes and lines storage is made with, once the first line comes. */
const MIN_BYTES = 4096;
const MIN_LINES = 64;

/**
 * The newest `capacity` lines of plain text, oldest first, kept as UTF-8 in one buffer: a line pushed
 * is a copy of its bytes, with no string made and no object left for the collector (every line of a
 * flood passes through here, and only the newest `capacity` are ever read); a line is decoded when it
 * is read. Each line's bytes are contiguous, and lines follow each other around the buffer; a line
 * that does not fit before the buffer's end starts again at its beginning. Storage grows with use, so
 * a pane that printed little holds little; once full, each new line replaces the oldest.
 */
export class TextRing {
  private bytes = new Uint8Array(0);
  /** Where each line starts and ends in `bytes`, by slot; slot `(first + i) % capacity` is line i. */
  private starts = new Int32Array(0);
  private ends = new Int32Array(0);
  private first = 0;
  private count = 0;
  /** Where the line reserved last starts. */
  private reserved = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.count;
  }

  /** Adds the first `length` bytes of `line` (UTF-8) as the newest line. */
  push(line: Uint8Array, length: number): void {
    if (this.capacity <= 0) return;
    const at = this.reserve(length);
    this.bytes.set(line.subarray(0, length), at);
    this.commit(at + length);
  }

  /**
   * Room for the newest line, written in place: up to `most` bytes from the offset returned, in
   * `buffer`; then `commit` says where it ended. Makes room for it first, dropping the oldest line once
   * the ring is full; so every reserve is followed by a commit (a second reserve before it drops no
   * other line). Not with a capacity of 0.
   */
  reserve(most: number): number {
    if (this.count === this.capacity) {
      this.first = (this.first + 1) % this.capacity;
      this.count -= 1;
    } else if (this.count === this.starts.length) {
      this.growSlots();
    }
    return (this.reserved = this.room(most));
  }

  /** The bytes lines are written in; valid until the next reserve. */
  get buffer(): Uint8Array {
    return this.bytes;
  }

  /** The line reserved last ends at `end` in `buffer`. */
  commit(end: number): void {
    const slot = (this.first + this.count) % this.capacity;
    this.starts[slot] = this.reserved;
    this.ends[slot] = end;
    this.count += 1;
  }

  /** The line `index` places after the oldest (0 is the oldest). */
  at(index: number): string {
    if (index < 0 || index >= this.count) return '';
    const slot = (this.first + index) % this.capacity;
    const start = this.starts[slot]!;
    const end = this.ends[slot]!;
    return start === end ? '' : decoder.decode(this.bytes.subarray(start, end));
  }

  /** Forgets the newest `count` lines. */
  dropNewest(count: number): void {
    this.count = Math.max(0, this.count - Math.max(0, count));
    if (this.count === 0) this.first = 0;
  }

  clear(): void {
    this.bytes = new Uint8Array(0);
    this.starts = new Int32Array(0);
    this.ends = new Int32Array(0);
    this.first = 0;
    this.count = 0;
  }

  /** Bytes held for lines (for tests and memory probes). */
  get byteCapacity(): number {
    return this.bytes.length;
  }

  /** Where a new line of `length` bytes goes: after the newest line, or at the buffer's start. */
  private room(length: number): number {
    if (this.count === 0) {
      if (length > this.bytes.length) this.grow(length);
      return 0;
    }
    const oldest = this.starts[this.first]!;
    const newest = (this.first + this.count - 1) % this.capacity;
    const next = this.ends[newest]!;
    if (this.starts[newest]! >= oldest) {
      // Lines run from `oldest` to `next`: room after them, else before them.
      if (this.bytes.length - next >= length) return next;
      if (oldest >= length) return 0;
    } else if (oldest - next >= length) {
      return next; // they wrapped: room between the newest and the oldest
    }
    return this.grow(length);
  }

  /** A buffer with the lines in order from its start and room for `length` more; where they go. */
  private grow(length: number): number {
    let used = 0;
    for (let i = 0; i < this.count; i++) {
      const slot = (this.first + i) % this.capacity;
      used += this.ends[slot]! - this.starts[slot]!;
    }
    const size = Math.max(MIN_BYTES, Math.ceil((used + length) * 1.25));
    const bytes = new Uint8Array(size);
    let at = 0;
    for (let i = 0; i < this.count; i++) {
      const slot = (this.first + i) % this.capacity;
      const start = this.starts[slot]!;
      const end = this.ends[slot]!;
      bytes.set(this.bytes.subarray(start, end), at);
      this.starts[slot] = at;
      at += end - start;
      this.ends[slot] = at;
    }
    this.bytes = bytes;
    return at;
  }

  /** More line slots: only while they are used from slot 0 on (before the ring first fills). */
  private growSlots(): void {
    const size = Math.min(this.capacity, Math.max(MIN_LINES, Math.ceil(this.starts.length * 1.5)));
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    // Slots fill from `first`; `first` leaves 0 only once every slot of `capacity` is made.
    starts.set(this.starts.subarray(0, this.count));
    ends.set(this.ends.subarray(0, this.count));
    this.starts = starts;
    this.ends = ends;
  }
}
