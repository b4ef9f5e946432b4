import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Disposable } from '../../base/disposable.ts';
import type { Logger } from '../logger.ts';
import { readSegments, segmentNames, type SegmentHeader } from './event-log-read.ts';
import { recoverStream, type LoadedLog } from './event-log-recovery.ts';
import { currentBoot, EVENT_MARK_BLOCK, EVENT_MARK_FILE, EventMarkWriter, readMark } from './event-mark.ts';
import type { RetainedEvent } from './event-ring.ts';

export type { LoadedLog } from './event-log-recovery.ts';

/** Events older than this are not loaded at start, and a segment whose events are all older is deleted. */
export const MAX_EVENT_LOG_AGE_MS = 7 * 24 * 3600 * 1000;
/** Full segments kept besides the one being written: together they hold at least the ring's bounds. */
export const EVENT_LOG_KEPT_SEGMENTS = 4;
/** How often written events are flushed to the disk (fsync); a daemon crash loses none of them anyway. */
export const EVENT_LOG_FSYNC_MS = 1000;

interface EventLogBounds {
  /** Events and bytes (as JSON lines) the ring keeps; the log keeps at least as many. */
  retain: number;
  retainBytes: number;
  maxAgeMs?: number;
}

/**
 * The durable event log: every published event is appended (one write each, before any subscriber
 * sees it) to segments in one folder of the state folder. A new daemon reads the last ones back, so
 * cursors, the epoch and the state_change_seq continue across a restart. Bounded: a segment ends at
 * a quarter of the ring's bounds, and only the last `EVENT_LOG_KEPT_SEGMENTS` full ones are kept, so
 * the folder holds at most 1.25 times the ring's bytes, and nothing older than `maxAgeMs`.
 *
 * Beside the segments, a mark (event-mark.ts) says how far cursors and seqs were handed out: a
 * reservation taken a block at a time before any of it is handed out, the exact last cursor once the
 * daemon stops. A log that lost events (damaged, cut, a segment gone, a machine crash) then never
 * hands out a cursor again: the stream goes on after the mark (event-log-recovery.ts).
 */
export class EventLog implements Disposable {
  private fd: number | null = null;
  private segment: string | null;
  private segmentBytes = 0;
  private segmentEvents = 0;
  private lastCursor: number;
  private lastSeq: number;
  /** What the mark reserves: no cursor or seq above these is handed out before the mark says so. */
  private reserved: { cursor: number; seq: number };
  /** False once an event could not be written. */
  private complete = true;
  private dirty = false;
  private readonly fsyncTimer: NodeJS.Timeout;
  private readonly maxSegmentBytes: number;
  private readonly maxSegmentEvents: number;
  private readonly maxAgeMs: number;
  private disposed = false;

  private constructor(
    private readonly dir: string,
    private readonly stream: { epoch: string; start: number },
    loaded: { lastCursor: number; lastSeq: number; segment: string | null },
    bounds: EventLogBounds,
    private readonly log: Logger,
    private readonly mark: EventMarkWriter | null,
    private readonly boot: string,
  ) {
    this.lastCursor = loaded.lastCursor;
    this.lastSeq = loaded.lastSeq;
    this.segment = loaded.segment;
    this.maxSegmentBytes = segmentBytesFor(bounds);
    this.maxSegmentEvents = Math.max(1, Math.ceil(bounds.retain / EVENT_LOG_KEPT_SEGMENTS));
    this.maxAgeMs = bounds.maxAgeMs ?? MAX_EVENT_LOG_AGE_MS;
    this.reserved = { cursor: this.lastCursor + EVENT_MARK_BLOCK, seq: this.lastSeq + EVENT_MARK_BLOCK };
    this.writeMark({ closed: false, flush: true });
    this.fsyncTimer = setInterval(() => this.sync(), EVENT_LOG_FSYNC_MS);
    this.fsyncTimer.unref();
  }

  /**
   * Reads the folder (made 0700 if absent) and its mark, and opens a new segment for this daemon.
   * `fresh` names the stream to start when the folder holds none. A log that lost events is said
   * in a warning (the file, the damage, what was done) and its segments are deleted: none of their
   * events can be resumed from any more.
   */
  static open(dir: string, bounds: EventLogBounds, fresh: { epoch: string; start: number }, log: Logger, now = Date.now(), boot = currentBoot()): { log: EventLog; loaded: LoadedLog } {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const read = readSegments(dir, { ...bounds, segmentBytes: segmentBytesFor(bounds) }, now - (bounds.maxAgeMs ?? MAX_EVENT_LOG_AGE_MS), log);
    for (const [name, damage] of read.damage) log.warn({ file: join(dir, name), damage }, 'event log segment damaged: read up to the damage');
    const markPath = join(dir, EVENT_MARK_FILE);
    const found = readMark(markPath);
    const { loaded, recovery } = recoverStream(read, found, boot, fresh);
    let segment = read.stream?.segment ?? null;
    if (recovery.how === 'skipped' || recovery.how === 'restarted') {
      const done =
        recovery.how === 'skipped'
          ? `cursors go on after ${loaded.lastCursor} and seqs after ${loaded.lastSeq}, the highest handed out, in epoch ${loaded.epoch}; an earlier cursor answers cursor_too_old`
          : `a new stream begins: epoch ${loaded.epoch}, cursors after ${loaded.lastCursor}; a cursor of the earlier one answers stream_changed`;
      log.warn({ dir, file: join(dir, recovery.file), damage: recovery.damage, readUpTo: read.stream?.lastCursor ?? null, epoch: loaded.epoch, cursorAfter: loaded.lastCursor, seqAfter: loaded.lastSeq }, `event log lost events (${recovery.damage}): ${done}`);
      for (const name of read.names) remove(join(dir, name));
      segment = null;
    }
    let writer: EventMarkWriter | null = null;
    try {
      writer = EventMarkWriter.open(markPath, found.found === 'mark' ? found.generation : 0);
    } catch (error) {
      log.error({ file: markPath, err: error }, 'cannot write the event log mark: should the log be damaged, the next daemon cannot tell which cursors were handed out');
    }
    const eventLog = new EventLog(dir, { epoch: loaded.epoch, start: loaded.start }, { ...loaded, segment }, bounds, log, writer, boot);
    eventLog.prune(now);
    return { log: eventLog, loaded };
  }

  /** Appends one event; a segment that reached its bound is closed first and the oldest beyond the kept ones deleted. */
  append(entry: RetainedEvent): void {
    if (this.disposed) return;
    const cursor = entry.event.cursor;
    const seq = (entry.event.data as { seq?: unknown } | null)?.seq;
    const eventSeq = typeof seq === 'number' ? seq : 0;
    if (cursor > this.reserved.cursor || eventSeq > this.reserved.seq) {
      // Before the event is handed out: the mark must bound it even if the log loses it.
      this.reserved = { cursor: Math.max(this.reserved.cursor, cursor + EVENT_MARK_BLOCK), seq: Math.max(this.reserved.seq, eventSeq + EVENT_MARK_BLOCK) };
      this.writeMark({ closed: false, flush: true });
    }
    try {
      if (this.fd === null || this.segmentBytes >= this.maxSegmentBytes || this.segmentEvents >= this.maxSegmentEvents) this.roll(entry.event.ts);
      const line = `${JSON.stringify({ agent: entry.agent, event: entry.event })}\n`;
      writeSync(this.fd!, line);
      this.segmentBytes += Buffer.byteLength(line);
      this.segmentEvents += 1;
      this.dirty = true;
    } catch (error) {
      // The stream goes on in memory; only its continuation across a restart is at stake, and the
      // mark tells the next daemon that the log misses an event.
      this.log.error({ dir: this.dir, err: error }, 'cannot write the event log');
      if (this.complete) {
        this.complete = false;
        this.writeMark({ closed: false, flush: true });
      }
    }
    this.lastCursor = cursor;
    if (eventSeq > this.lastSeq) this.lastSeq = eventSeq;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.fsyncTimer);
    const flushed = this.sync();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    // Closed only once the segment is on the disk: the log then ends exactly at the last cursor.
    this.writeMark({ closed: flushed, flush: true });
    this.mark?.dispose();
  }

  /** Flushes written events to the disk; false when that failed. */
  private sync(): boolean {
    if (!this.dirty || this.fd === null) return true;
    this.dirty = false;
    try {
      fsyncSync(this.fd);
      return true;
    } catch (error) {
      this.log.warn({ dir: this.dir, err: error }, 'cannot flush the event log');
      return false;
    }
  }

  private writeMark({ closed, flush }: { closed: boolean; flush: boolean }): void {
    if (this.mark === null) return;
    try {
      this.mark.write({
        epoch: this.stream.epoch,
        start: this.stream.start,
        cursor: closed ? this.lastCursor : this.reserved.cursor,
        seq: this.reserved.seq,
        closed,
        complete: this.complete,
        segment: this.segment,
        boot: this.boot,
      }, flush);
    } catch (error) {
      this.log.error({ dir: this.dir, err: error }, 'cannot write the event log mark: should the log be damaged, the next daemon cannot tell which cursors were handed out');
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
    this.segment = name;
    this.segmentBytes = Buffer.byteLength(line);
    this.segmentEvents = 0;
    // The mark names the segment the log now ends in, so that losing it is seen after a crash of the
    // daemon; not flushed: after a crash of the machine the log is not trusted anyway.
    this.writeMark({ closed: false, flush: false });
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

function segmentBytesFor(bounds: EventLogBounds): number {
  return Math.max(4096, Math.ceil(bounds.retainBytes / EVENT_LOG_KEPT_SEGMENTS));
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
