/** One JSON text per line (NDJSON). A line longer than this is refused and the connection closed. */
export const MAX_FRAME_BYTES = 1 << 20;

const NEWLINE = 0x0a;

export type DecodeResult = { frames: string[]; overflow: boolean };

/**
 * Splits a byte stream into UTF-8 lines. Splitting on the 0x0a byte is safe because no UTF-8
 * multi-byte sequence contains it. Bytes are counted as they arrive: an unfinished line is never held
 * past `maxBytes`, and a line that passes it is refused at once, finished or not (the daemon reads its
 * clients with it, and every client its daemon: docs/protocol.md, "Framing"). After an overflow the
 * decoder is spent and returns nothing more.
 */
export class FrameDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private spent = false;

  constructor(private readonly maxBytes: number = MAX_FRAME_BYTES) {}

  /** Bytes of an unfinished line held so far. */
  get buffered(): number {
    return this.pendingBytes;
  }

  push(chunk: Buffer): DecodeResult {
    const frames: string[] = [];
    if (this.spent) return { frames, overflow: true };
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      if (this.pendingBytes + (nl - start) > this.maxBytes) return this.overflow(frames);
      // Most lines lie whole in one chunk: decoded in place, with no copy of their bytes.
      const line = this.pendingBytes === 0 ? chunk.toString('utf8', start, nl) : Buffer.concat([...this.pending, chunk.subarray(start, nl)]).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (trimmed.trim() !== '') frames.push(trimmed);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) return this.overflow(frames);
    }
    return { frames, overflow: false };
  }

  private overflow(frames: string[]): DecodeResult {
    this.spent = true;
    this.pending = [];
    this.pendingBytes = 0;
    return { frames, overflow: true };
  }
}
