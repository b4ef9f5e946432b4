/**
 * The pty host's private wire: length-prefixed frames over its socket. Each frame is a 4-byte
 * big-endian length, one byte of kind, then the body. Control messages are JSON; output and input
 * carry a pane handle and raw bytes, so terminal data is never JSON-escaped. Output is forwarded as
 * the PTY gave it: a UTF-8 character may be split between two frames.
 */

/** Bumped on any change of frames or messages; a daemon and a host of different versions refuse each other. */
export const HOST_PROTOCOL_VERSION = 3;
/** The largest frame either side accepts; a bigger one closes the connection. */
export const MAX_HOST_FRAME_BYTES = 16 * 1024 * 1024;

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
}

export interface HostExit {
  exitCode: number | null;
  signal: number | null;
  reason: string | null;
}

/** What the host tells the daemon. */
export type HostMessage =
  | { t: 'hello'; version: number; pid: number; startedAt: number; ringBytes: number; panes: HostPaneInfo[] }
  | { t: 'refused'; version: number; message: string }
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

export function encodeData(kind: FrameKind, handle: number, data: string | Buffer): Buffer {
  const length = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.length;
  const frame = Buffer.allocUnsafe(9 + length);
  frame.writeUInt32BE(5 + length, 0);
  frame.writeUInt8(kind, 4);
  frame.writeUInt32BE(handle, 5);
  if (typeof data === 'string') frame.write(data, 9, 'utf8');
  else data.copy(frame, 9);
  return frame;
}

export type Frame =
  | { kind: typeof FrameKind.control; message: unknown }
  | { kind: typeof FrameKind.output | typeof FrameKind.input | typeof FrameKind.replay; handle: number; data: Buffer };

/** Splits a byte stream into frames; throws on a frame over the limit or of an unknown kind. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes the next frame needs in all; chunks are joined only once that many arrived. */
  private needed = 4;

  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.needed) return [];
    const frames: Frame[] = [];
    let buffer = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
    let offset = 0;
    while (buffer.length - offset >= 4) {
      const length = buffer.readUInt32BE(offset);
      if (length < 1 || length > MAX_HOST_FRAME_BYTES) throw new Error(`host frame of ${length} bytes is outside 1..${MAX_HOST_FRAME_BYTES}`);
      if (buffer.length - offset < 4 + length) {
        this.needed = 4 + length;
        break;
      }
      const body = buffer.subarray(offset + 4, offset + 4 + length);
      offset += 4 + length;
      frames.push(decodeBody(body));
    }
    buffer = buffer.subarray(offset);
    if (buffer.length < 4) this.needed = 4;
    this.chunks = buffer.length > 0 ? [Buffer.from(buffer)] : [];
    this.buffered = buffer.length;
    return frames;
  }
}

function decodeBody(body: Buffer): Frame {
  const kind = body.readUInt8(0);
  if (kind === FrameKind.control) return { kind, message: JSON.parse(body.toString('utf8', 1)) };
  if (kind === FrameKind.output || kind === FrameKind.input || kind === FrameKind.replay) {
    if (body.length < 5) throw new Error('host data frame without a handle');
    return { kind, handle: body.readUInt32BE(1), data: body.subarray(5) };
  }
  throw new Error(`unknown host frame kind ${kind}`);
}
