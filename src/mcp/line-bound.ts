import { Transform, type TransformCallback } from 'node:stream';

/** Bytes of an over-long line kept from each end, enough for its `method` and `id`. */
const KEPT_BYTES = 4096;

/** What is known of a line that was too long to pass: its size and both of its ends. */
export interface OversizedLine {
  bytes: number;
  head: string;
  tail: string;
}

/**
 * Passes whole lines of at most `limit` bytes and holds no more than that: a longer line is dropped as
 * it streams, keeping only its ends, and told to `oversized` once its newline arrives. The MCP SDK's
 * own stdio reader closes the whole server on a message over its buffer (10 MiB, with no answer and
 * exit code 0); behind this filter it never sees one.
 */
export class LineBound extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | null = null;
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly limit: number,
    private readonly oversized: (line: OversizedLine) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(0x0a, from);
      const end = newline < 0 ? chunk.length : newline + 1;
      this.collect(chunk.subarray(from, end));
      if (newline >= 0) this.finishLine();
      from = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.head === null && this.size > 0) this.push(Buffer.concat(this.parts));
    this.parts = [];
    done();
  }

  private collect(piece: Buffer): void {
    this.size += piece.length;
    if (this.head === null && this.size <= this.limit) {
      this.parts.push(piece);
      return;
    }
    if (this.head === null) {
      // Over the limit from here on: keep its first and last bytes only.
      this.head = Buffer.concat(this.parts).subarray(0, KEPT_BYTES);
      if (this.head.length < KEPT_BYTES) this.head = Buffer.concat([this.head, piece.subarray(0, KEPT_BYTES - this.head.length)]);
      this.parts = [];
    }
    const joined = Buffer.concat([this.tail, piece]);
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - KEPT_BYTES)));
  }

  private finishLine(): void {
    if (this.head === null) this.push(Buffer.concat(this.parts));
    else this.oversized({ bytes: this.size, head: this.head.toString('utf8'), tail: this.tail.toString('utf8') });
    this.parts = [];
    this.size = 0;
    this.head = null;
    this.tail = Buffer.alloc(0);
  }
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,256}")`;
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);

/** The request id of an over-long JSON-RPC line, where it stands first or last in the object (as clients write it). */
export function idOf(line: OversizedLine): string | number | null {
  const match = ID_AT_END.exec(line.tail) ?? ID_AT_START.exec(line.head);
  if (match === null) return null;
  try {
    return JSON.parse(match[1]!) as string | number;
  } catch {
    return null;
  }
}

/** Whether the over-long line is a tool call, from its first bytes. */
export function isToolCall(line: OversizedLine): boolean {
  return /^\s*\{[^]*?"method"\s*:\s*"tools\/call"/.test(line.head.slice(0, 512));
}
