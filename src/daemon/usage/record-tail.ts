import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

/** The longest line read; a longer one is skipped whole and counted (docs/usage.md). */
export const MAX_RECORD_LINE = 1 << 20;
/** One read's size: the buffer a tail holds, beside at most one line's partial bytes. */
export const READ_CHUNK = 256 << 10;

/** Where a tail stands in its file, kept across daemon restarts so nothing is read twice. */
export interface TailPosition {
  offset: number;
  /** The file's inode: another file at the path (rotated, replaced) is read from its start. */
  ino: number;
}

export type TailOutcome = 'unchanged' | 'read' | 'more' | 'restarted' | 'absent';

/**
 * Reads what was appended to a line-oriented file since the last read, in chunks of READ_CHUNK, at most
 * `maxBytes` per call (the caller comes back for `more`), each read awaited so the daemon is never held.
 * A line is handed over only once its newline is there; one over MAX_RECORD_LINE is skipped and counted.
 * The file is opened without blocking and must be a regular file: a FIFO or a device named as a
 * record is refused, since the path comes from a pane's process. It stays open between reads until
 * `close` (another file at the path closes it at once).
 */
export class RecordTail {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Inside a line already over the bound: its bytes are dropped until its newline. */
  private overlong = false;
  private readonly chunk = Buffer.allocUnsafe(READ_CHUNK);
  private handle: FileHandle | null = null;
  skipped = 0;

  constructor(
    readonly path: string,
    public position: TailPosition = { offset: 0, ino: 0 },
  ) {}

  async read(onLine: (line: Buffer) => void, maxBytes: number): Promise<TailOutcome> {
    let info;
    try {
      info = await stat(this.path);
    } catch {
      this.close();
      return 'absent';
    }
    if (!info.isFile()) {
      this.close();
      return 'absent';
    }
    if ((this.position.ino !== 0 && info.ino !== this.position.ino) || info.size < this.position.offset) {
      // Another file, or this one cut short: its lines are not the ones counted; start again.
      this.close();
      this.position = { offset: 0, ino: info.ino };
      this.partial = [];
      this.partialBytes = 0;
      this.overlong = false;
      // Nothing read yet: the caller lets go of what it counted, then reads again.
      return 'restarted';
    }
    this.position.ino = info.ino;
    if (info.size === this.position.offset) return 'unchanged';
    const handle = await this.open(info.ino);
    if (handle === null) return 'absent';
    // Up to the size just read: what is appended meanwhile waits for the next read.
    const end = Math.min(info.size, this.position.offset + maxBytes);
    while (this.position.offset < end) {
      const { bytesRead } = await handle.read(this.chunk, 0, Math.min(READ_CHUNK, end - this.position.offset), this.position.offset);
      if (bytesRead === 0) break;
      this.position.offset += bytesRead;
      this.split(this.chunk.subarray(0, bytesRead), onLine);
    }
    return this.position.offset < info.size ? 'more' : 'read';
  }

  /** Lets the file go; the next read opens it again. */
  close(): void {
    void this.handle?.close().catch(() => undefined);
    this.handle = null;
  }

  /**
   * The file kept open between reads (a record is read every second while it grows), opened without
   * blocking, and only if it is still the regular file of inode `ino`.
   */
  private async open(ino: number): Promise<FileHandle | null> {
    if (this.handle !== null) return this.handle;
    const handle = await open(this.path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
    if (handle === null) return null;
    const opened = await handle.stat().catch(() => null);
    if (opened === null || !opened.isFile() || opened.ino !== ino) {
      await handle.close().catch(() => undefined);
      return null;
    }
    this.handle = handle;
    return handle;
  }

  private split(bytes: Buffer, onLine: (line: Buffer) => void): void {
    let start = 0;
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      const piece = bytes.subarray(start, end);
      start = end + 1;
      if (this.overlong) {
        this.overlong = false;
        continue;
      }
      if (this.partialBytes + piece.length > MAX_RECORD_LINE) {
        this.dropPartial();
        continue;
      }
      const line = this.partialBytes === 0 ? piece : Buffer.concat([...this.partial, piece]);
      this.partial = [];
      this.partialBytes = 0;
      if (line.length > 0) onLine(line);
    }
    const rest = bytes.subarray(start);
    if (rest.length === 0 || this.overlong) return;
    if (this.partialBytes + rest.length > MAX_RECORD_LINE) {
      this.dropPartial();
      this.overlong = true;
      return;
    }
    // Copied: the chunk buffer is read into again.
    this.partial.push(Buffer.from(rest));
    this.partialBytes += rest.length;
  }

  private dropPartial(): void {
    this.partial = [];
    this.partialBytes = 0;
    this.skipped += 1;
  }
}
