import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CorralEvent } from '../../protocol/methods/events.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { Logger } from '../logger.ts';
import type { RetainedEvent } from './event-ring.ts';

/** Events older than this are not loaded at start, and a segment whose events are all older is deleted. */
export const MAX_EVENT_LOG_AGE_MS = 7 * 24 * 3600 * 1000;
/** Full segments kept besides the one being written: together they hold at least the ring's bounds. */
export const EVENT_LOG_KEPT_SEGMENTS = 4;
/** How often written events are flushed to the disk (fsync); a daemon crash loses none of them anyway. */
export const EVENT_LOG_FSYNC_MS = 1000;

/** The first line of every segment: the stream it continues. */
interface SegmentHeader {
  corralEventLog: 1;
  epoch: string;
  /** The cursor before the stream's first event: what `since: 0` means. */
  start: number;
  /** The last cursor and state_change_seq before this segment's first event. */
  cursorAfter: number;
  seqAfter: number;
}

interface EventLogBounds {
  /** Events and bytes (as JSON lines) the ring keeps; the log keeps at least as many. */
  retain: number;
  retainBytes: number;
  maxAgeMs?: number;
}

/** What the log held at start: the stream to continue, and its retained events oldest first. */
export interface LoadedLog {
  epoch: string;
  start: number;
  lastCursor: number;
  lastSeq: number;
  events: RetainedEvent[];
}

const SEGMENT = /^seg-(\d{16})\.ndjson$/;

/**
 * The durable event log: every published event is appended (one write each, before any subscriber
 * sees it) to segments in one folder of the state folder. A new daemon reads the last ones back, so
 * cursors, the epoch and the state_change_seq continue across a restart. Bounded: a segment ends at
 * a quarter of the ring's bounds, and only the last `EVENT_LOG_KEPT_SEGMENTS` full ones are kept, so
 * the folder holds at most 1.25 times the ring's bytes, and nothing older than `maxAgeMs`.
 */
export class EventLog implements Disposable {
  private fd: number | null = null;
  private segmentBytes = 0;
  private segmentEvents = 0;
  private lastCursor: number;
  private lastSeq: number;
  private dirty = false;
  private readonly fsyncTimer: NodeJS.Timeout;
  private readonly maxSegmentBytes: number;
  private readonly maxSegmentEvents: number;
  private readonly maxAgeMs: number;
  private disposed = false;

  private constructor(
    private readonly dir: string,
    private readonly stream: { epoch: string; start: number },
    loaded: { lastCursor: number; lastSeq: number },
    bounds: EventLogBounds,
    private readonly log: Logger,
  ) {
    this.lastCursor = loaded.lastCursor;
    this.lastSeq = loaded.lastSeq;
    this.maxSegmentBytes = Math.max(4096, Math.ceil(bounds.retainBytes / EVENT_LOG_KEPT_SEGMENTS));
    this.maxSegmentEvents = Math.max(1, Math.ceil(bounds.retain / EVENT_LOG_KEPT_SEGMENTS));
    this.maxAgeMs = bounds.maxAgeMs ?? MAX_EVENT_LOG_AGE_MS;
    this.fsyncTimer = setInterval(() => this.sync(), EVENT_LOG_FSYNC_MS);
    this.fsyncTimer.unref();
  }

  /**
   * Reads the folder (made 0700 if absent) and opens a new segment for this daemon. `fresh` names
   * the stream to start when the folder holds none.
   */
  static open(dir: string, bounds: EventLogBounds, fresh: { epoch: string; start: number }, log: Logger, now = Date.now()): { log: EventLog; loaded: LoadedLog } {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const loaded = readSegments(dir, bounds, now - (bounds.maxAgeMs ?? MAX_EVENT_LOG_AGE_MS), log) ?? { ...fresh, lastCursor: fresh.start, lastSeq: 0, events: [] };
    const eventLog = new EventLog(dir, { epoch: loaded.epoch, start: loaded.start }, loaded, bounds, log);
    eventLog.prune(now);
    return { log: eventLog, loaded };
  }

  /** Appends one event; a segment that reached its bound is closed first and the oldest beyond the kept ones deleted. */
  append(entry: RetainedEvent): void {
    if (this.disposed) return;
    try {
      if (this.fd === null || this.segmentBytes >= this.maxSegmentBytes || this.segmentEvents >= this.maxSegmentEvents) this.roll(entry.event.ts);
      const line = `${JSON.stringify({ agent: entry.agent, event: entry.event })}\n`;
      writeSync(this.fd!, line);
      this.segmentBytes += Buffer.byteLength(line);
      this.segmentEvents += 1;
      this.dirty = true;
    } catch (error) {
      // The stream goes on in memory; only its continuation across a restart is at stake.
      this.log.error({ dir: this.dir, err: error }, 'cannot write the event log');
    }
    this.lastCursor = entry.event.cursor;
    const seq = (entry.event.data as { seq?: unknown } | null)?.seq;
    if (typeof seq === 'number' && seq > this.lastSeq) this.lastSeq = seq;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.fsyncTimer);
    this.sync();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private sync(): void {
    if (!this.dirty || this.fd === null) return;
    this.dirty = false;
    try {
      fsyncSync(this.fd);
    } catch (error) {
      this.log.warn({ dir: this.dir, err: error }, 'cannot flush the event log');
    }
  }

  private roll(now: number): void {
    if (this.fd !== null) {
      this.sync();
      closeSync(this.fd);
      this.fd = null;
    }
    const name = `seg-${String(this.lastCursor + 1).padStart(16, '0')}.ndjson`;
    const fd = openSync(join(this.dir, name), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    const header: SegmentHeader = { corralEventLog: 1, epoch: this.stream.epoch, start: this.stream.start, cursorAfter: this.lastCursor, seqAfter: this.lastSeq };
    const line = `${JSON.stringify(header)}\n`;
    writeSync(fd, line);
    this.fd = fd;
    this.segmentBytes = Buffer.byteLength(line);
    this.segmentEvents = 0;
    this.prune(now);
  }

  /** Deletes segments beyond the kept ones, and whole segments older than the age bound (never the newest). */
  private prune(now: number): void {
    const names = segmentNames(this.dir);
    const current = this.fd !== null ? 1 : 0;
    const excess = names.length - current - EVENT_LOG_KEPT_SEGMENTS;
    for (const [index, name] of names.entries()) {
      const newest = index === names.length - 1;
      if (newest) break;
      // A segment last written before the age bound holds only events older than it.
      if (index < excess || modifiedAt(join(this.dir, name)) < now - this.maxAgeMs) remove(join(this.dir, name));
    }
  }
}

function segmentNames(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => SEGMENT.test(name)).sort();
}

function modifiedAt(path: string): number {
  try {
    return lstatSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/**
 * The stream the folder continues and its newest retained events (at most `retain`, at most
 * `retainBytes`, none older than `notBefore`), or null when it holds no usable segment. A segment is
 * read only as a regular file, opened without following a link or blocking, and only up to its bound;
 * a torn last line (a crash in the middle of a write) is skipped.
 */
function readSegments(dir: string, bounds: EventLogBounds, notBefore: number, log: Logger): LoadedLog | null {
  const limit = 2 * Math.max(4096, Math.ceil(bounds.retainBytes / EVENT_LOG_KEPT_SEGMENTS)) + (1 << 20);
  let stream: LoadedLog | null = null;
  for (const name of segmentNames(dir)) {
    const text = readBounded(join(dir, name), limit, log);
    if (text === null) continue;
    const lines = text.split('\n');
    const header = parseHeader(lines[0]!);
    if (header === null) {
      log.warn({ file: join(dir, name) }, 'event log segment without a valid header: skipped');
      continue;
    }
    if (stream === null || stream.epoch !== header.epoch || header.cursorAfter !== stream.lastCursor) {
      // The first segment, or one that does not continue the last: the stream starts over from it.
      if (stream !== null) log.warn({ file: join(dir, name), after: stream.lastCursor, cursorAfter: header.cursorAfter }, 'event log segment does not continue the one before it');
      stream = { epoch: header.epoch, start: header.start, lastCursor: header.cursorAfter, lastSeq: header.seqAfter, events: [] };
    }
    stream.lastSeq = Math.max(stream.lastSeq, header.seqAfter);
    for (const line of lines.slice(1)) {
      if (line === '') continue;
      const entry = parseEntry(line);
      if (entry === null || entry.event.cursor !== stream.lastCursor + 1) break; // torn or out of order: the rest of the segment is not trusted
      stream.lastCursor = entry.event.cursor;
      const seq = (entry.event.data as { seq?: unknown } | null)?.seq;
      if (typeof seq === 'number' && seq > stream.lastSeq) stream.lastSeq = seq;
      stream.events.push(entry);
    }
  }
  if (stream === null) return null;
  // Keep the newest within the ring's bounds, all of them contiguous up to the last cursor.
  let bytes = 0;
  let first = stream.events.length;
  while (first > 0) {
    const entry = stream.events[first - 1]!;
    if (stream.events.length - first >= bounds.retain || bytes + entry.bytes > bounds.retainBytes || entry.event.ts < notBefore) break;
    bytes += entry.bytes;
    first -= 1;
  }
  stream.events = stream.events.slice(first);
  return stream;
}

function readBounded(path: string, limit: number, log: Logger): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    log.warn({ file: path, err: error }, 'event log segment unreadable: skipped');
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      log.warn({ file: path }, 'event log segment is not a regular file: skipped');
      return null;
    }
    const buffer = Buffer.alloc(Math.min(stat.size, limit));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    if (stat.size > limit) log.warn({ file: path, bytes: stat.size, limit }, 'event log segment over its bound: read up to it');
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function parseHeader(line: string): SegmentHeader | null {
  try {
    const value = JSON.parse(line) as Partial<SegmentHeader>;
    if (value.corralEventLog !== 1 || typeof value.epoch !== 'string' || ![value.start, value.cursorAfter, value.seqAfter].every(Number.isSafeInteger)) return null;
    return value as SegmentHeader;
  } catch {
    return null;
  }
}

function parseEntry(line: string): RetainedEvent | null {
  try {
    const value = JSON.parse(line) as { agent?: unknown; event?: Partial<CorralEvent> };
    const event = value.event;
    if (!event || !Number.isSafeInteger(event.cursor) || typeof event.kind !== 'string' || typeof event.ts !== 'number') return null;
    const agent = typeof value.agent === 'string' ? value.agent : null;
    return { event: event as CorralEvent, agent, bytes: Buffer.byteLength(JSON.stringify(event)) + 1 };
  } catch {
    return null;
  }
}
