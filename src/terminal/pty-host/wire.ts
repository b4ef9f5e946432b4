/**
 * The pty host's private wire: length-prefixed frames over its socket. Each frame is a 4-byte
 * big-endian length, one byte of kind, then the body. Control messages are JSON; output and input
 * carry a pane handle and raw bytes, so terminal data is never JSON-escaped. Output is forwarded as
 * the PTY gave it: a UTF-8 character may be split between two frames.
 */

/** Bumped on any change of frames or messages; a daemon and a host of different versions refuse each other. */
export const HOST_PROTOCOL_VERSION = 3;
/** The largest frame either side accepts once the daemon is attached; a bigger one closes the connection. */
export const MAX_HOST_FRAME_BYTES = 16 * 1024 * 1024;
/** The largest frame the host reads before hello (a hello is about 30 bytes); a bigger one is refused. */
export const MAX_HELLO_FRAME_BYTES = 1024;

/**
 * Why the host refused a connection, a stable code beside the message: the peer is not the process
 * holding the daemon's lock (`not_lock_holder`), runs inside a pane of this host (`pane_process`),
 * could not be identified (`peer_unknown`), came when the host holds its most connections
 * (`too_many_connections`), said nothing in time (`hello_timeout`), sent something else first
 * (`hello_expected`) or too big a frame (`frame_too_large`), speaks another version
 * (`version_mismatch`), or came while the host shuts down (`shutting_down`).
 */
export type HostRefusal =
  | 'not_lock_holder'
  | 'pane_process'
  | 'peer_unknown'
  | 'too_many_connections'
  | 'hello_timeout'
  | 'hello_expected'
  | 'frame_too_large'
  | 'version_mismatch'
  | 'shutting_down';

export const FrameKind = {
  /** A JSON control message. */
  control: 1,
  /** Live output of a pane (host to daemon). */
  output: 2,
  /** Input for a pane (daemon to host). */
  input: 3,
  /** The ring of a pane replayed on attach, before any live output (host to daemon). */
  replay: 4,
} as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

/** What the daemon asks of the host. `id` pairs a request with its reply. */
export type DaemonMessage =
  | { t: 'hello'; version: number }
  | { t: 'spawn'; id: number; meta: unknown; command: string; args: string[]; cwd: string; env: Record<string, string>; cols: number; rows: number }
  | { t: 'resize'; handle: number; cols: number; rows: number }
  | { t: 'pause'; handle: number }
  | { t: 'resume'; handle: number }
  | { t: 'terminate'; handle: number }
  | { t: 'kill'; handle: number }
  | { t: 'forget'; handle: number }
  | { t: 'meta'; handle: number; meta: unknown }
  | { t: 'shutdown'; id: number };

export interface HostPaneInfo {
  handle: number;
  pid: number;
  meta: unknown;
  cols: number;
  rows: number;
  startedAt: number;
  /** Output dropped from the head of the ring since the pane started (bytes). */
  dropped: number;
  /** Null while running. */
  exit: HostExit | null;
  /** Input bytes the host has received for the pane since it started (the daemon counts what it sent on top). */
  inputReceived: number;
  /** When the host last read output from the pane (ms since the epoch); null before any. Absent from an older host. */
  lastOutputAt?: number | null;
}

export interface HostExit {
  exitCode: number | null;
  signal: number | null;
  reason: string | null;
}

/** What the host tells the daemon. */
export type HostMessage =
  | { t: 'hello'; version: number; pid: number; startedAt: number; ringBytes: number; panes: HostPaneInfo[] }
  | { t: 'refused'; version: number; reason: HostRefusal; message: string }
  | { t: 'spawned'; id: number; handle: number; pid: number }
  | { t: 'failed'; id: number; message: string }
  | { t: 'exit'; handle: number; exit: HostExit }
  /** Input for a pane: bytes received so far, and bytes its program has not read yet (sent while any wait, and once at 0). */
  | { t: 'input'; handle: number; received: number; pending: number }
  | { t: 'shutdown'; id: number };

export function encodeControl(message: DaemonMessage | HostMessage): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const frame = Buffer.allocUnsafe(5 + body.length);
  frame.writeUInt32BE(1 + body.length, 0);
  frame.writeUInt8(FrameKind.control, 4);
  body.copy(frame, 5);
  return frame;
}

/** Bytes before a data frame's body: length, kind, pane handle. */
const DATA_HEADER_BYTES = 9;

/** Writes a data frame's header for a body of `length` bytes at the start of `frame`. */
function writeDataHeader(frame: Buffer, kind: FrameKind, handle: number, length: number): void {
  frame.writeUInt32BE(DATA_HEADER_BYTES - 4 + length, 0);
  frame.writeUInt8(kind, 4);
  frame.writeUInt32BE(handle, 5);
}

/**
 * A data frame's header alone: a writer that sends the body as it is (corked, one writev) copies no
 * byte of output.
 */
export function dataHeader(kind: FrameKind, handle: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(DATA_HEADER_BYTES);
  writeDataHeader(header, kind, handle, length);
  return header;
}

export function encodeData(kind: FrameKind, handle: number, data: string | Buffer): Buffer {
  const length = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.length;
  const frame = Buffer.allocUnsafe(DATA_HEADER_BYTES + length);
  writeDataHeader(frame, kind, handle, length);
  if (typeof data === 'string') frame.write(data, DATA_HEADER_BYTES, 'utf8');
  else data.copy(frame, DATA_HEADER_BYTES);
  return frame;
}

export type Frame =
  | { kind: typeof FrameKind.control; message: unknown }
  | { kind: typeof FrameKind.output | typeof FrameKind.input | typeof FrameKind.replay; handle: number; data: Buffer };

/** A frame the reader cannot take: over its limit, or not a frame of this wire. */
export class HostFrameError extends Error {
  constructor(
    readonly code: 'frame_too_large' | 'bad_frame',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Splits a byte stream into frames; throws a HostFrameError on a frame over `limit` or of an unknown
 * kind. A frame within one read is a view of that read, not a copy; only a frame split between reads
 * is copied, once, into a buffer of its own size (joining every read with the rest of the one before
 * copied each byte of a flood once more).
 */
export class FrameReader {
  /** The largest frame taken; a reader may raise it once its peer is known (the host does after hello). */
  constructor(public limit = MAX_HOST_FRAME_BYTES) {}

  /** The length header of a frame split between reads, and how many of its 4 bytes came. */
  private readonly header = Buffer.alloc(4);
  private headerBytes = 0;
  /** The body of a frame split between reads, once its length is known, and how much of it came. */
  private body: Buffer | null = null;
  private bodyBytes = 0;

  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let offset = this.headerBytes > 0 || this.body !== null ? this.continueSplit(chunk, frames) : 0;
    while (offset < chunk.length) {
      if (chunk.length - offset < 4) {
        this.headerBytes = chunk.copy(this.header, 0, offset);
        break;
      }
      const length = this.checkedLength(chunk.readUInt32BE(offset));
      if (chunk.length - offset - 4 < length) {
        this.body = Buffer.allocUnsafe(length);
        this.bodyBytes = chunk.copy(this.body, 0, offset + 4);
        break;
      }
      frames.push(decodeBody(chunk.subarray(offset + 4, offset + 4 + length)));
      offset += 4 + length;
    }
    return frames;
  }

  /** Adds the start of `chunk` to the split frame; where the rest of the chunk starts. */
  private continueSplit(chunk: Buffer, frames: Frame[]): number {
    let offset = 0;
    if (this.body === null) {
      const taken = chunk.copy(this.header, this.headerBytes, 0, 4 - this.headerBytes);
      this.headerBytes += taken;
      offset = taken;
      if (this.headerBytes < 4) return chunk.length;
      this.headerBytes = 0;
      this.body = Buffer.allocUnsafe(this.checkedLength(this.header.readUInt32BE(0)));
      this.bodyBytes = 0;
    }
    const body = this.body;
    const taken = chunk.copy(body, this.bodyBytes, offset, offset + body.length - this.bodyBytes);
    this.bodyBytes += taken;
    offset += taken;
    if (this.bodyBytes < body.length) return chunk.length;
    this.body = null;
    frames.push(decodeBody(body));
    return offset;
  }

  /** Drops the part of a frame read so far (its connection closed, the rest will never come); whether there was one. */
  release(): boolean {
    const held = this.body !== null || this.headerBytes > 0;
    this.body = null;
    this.bodyBytes = 0;
    this.headerBytes = 0;
    return held;
  }

  private checkedLength(length: number): number {
    if (length > this.limit) throw new HostFrameError('frame_too_large', `a host frame of ${length} bytes is over the limit of ${this.limit}`);
    if (length < 1) throw new HostFrameError('bad_frame', 'a host frame of 0 bytes');
    return length;
  }
}

function decodeBody(body: Buffer): Frame {
  const kind = body.readUInt8(0);
  if (kind === FrameKind.control) {
    try {
      return { kind, message: JSON.parse(body.toString('utf8', 1)) };
    } catch {
      throw new HostFrameError('bad_frame', 'a host control frame that is not JSON');
    }
  }
  if (kind === FrameKind.output || kind === FrameKind.input || kind === FrameKind.replay) {
    if (body.length < 5) throw new HostFrameError('bad_frame', 'a host data frame without a handle');
    return { kind, handle: body.readUInt32BE(1), data: body.subarray(5) };
  }
  throw new HostFrameError('bad_frame', `unknown host frame kind ${kind}`);
}
