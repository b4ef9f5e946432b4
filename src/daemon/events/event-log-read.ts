import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { CorralEvent } from '../../protocol/methods/events.ts';
import type { Logger } from '../logger.ts';
import type { RetainedEvent } from './event-ring.ts';

/** The first line of every segment: the stream it continues. */
export interface SegmentHeader {
  corralEventLog: 1;
  epoch: string;
  /** The cursor before the stream's first event: what `since: 0` means. */
  start: number;
  /** The last cursor and state_change_seq before this segment's first event. */
  cursorAfter: number;
  seqAfter: number;
}

export interface ReadBounds {
  retain: number;
  retainBytes: number;
  /** Bytes of one segment: a segment is read up to twice that. */
  segmentBytes: number;
}

/** The stream the segments continue, as far as they could be read. */
export interface ReadStream {
  epoch: string;
  start: number;
  lastCursor: number;
  lastSeq: number;
  /** Its newest retained events, oldest first, contiguous up to `lastCursor`. */
  events: RetainedEvent[];
  /** The segment it ends in. */
  segment: string;
}

export interface SegmentsRead {
  stream: ReadStream | null;
  /** Every segment file, oldest first. */
  names: string[];
  /** What could not be read, by segment: its header, a line from some byte on, the file itself. */
  damage: Map<string, string>;
}

const SEGMENT = /^seg-(\d{16})\.ndjson$/;

export function segmentNames(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => SEGMENT.test(name)).sort();
}

/**
 * The stream the folder continues and its newest events (at most `retain`, at most `retainBytes`,
 * none older than `notBefore`), and the damage met on the way. A segment is read only as a regular
 * file, opened without following a link or blocking, and only up to its bound; from a line that is
 * not the next event (torn, overwritten, out of order) on, the rest of the segment is not trusted. A
 * segment that does not continue the one before it starts the stream over.
 */
export function readSegments(dir: string, bounds: ReadBounds, notBefore: number, log: Logger): SegmentsRead {
  const limit = 2 * bounds.segmentBytes + (1 << 20);
  const names = segmentNames(dir);
  const damage = new Map<string, string>();
  let stream: ReadStream | null = null;
  for (const name of names) {
    const file = readBounded(join(dir, name), limit);
    if (typeof file !== 'string') {
      damage.set(name, file.problem);
      continue;
    }
    const lines = file.split('\n');
    const header = parseHeader(lines[0]!);
    if (header === null) {
      damage.set(name, 'no valid header');
      continue;
    }
    if (stream === null || stream.epoch !== header.epoch || header.cursorAfter !== stream.lastCursor) {
      // The first segment, or one that does not continue the last: the stream starts over from it.
      if (stream !== null) log.warn({ file: join(dir, name), after: stream.lastCursor, cursorAfter: header.cursorAfter }, 'event log segment does not continue the one before it');
      stream = { epoch: header.epoch, start: header.start, lastCursor: header.cursorAfter, lastSeq: header.seqAfter, events: [], segment: name };
    }
    stream.segment = name;
    stream.lastSeq = Math.max(stream.lastSeq, header.seqAfter);
    let byte = Buffer.byteLength(lines[0]!) + 1;
    for (const [index, line] of lines.slice(1).entries()) {
      const last = index === lines.length - 2;
      if (line === '' && last) break;
      const entry = line === '' ? null : parseEntry(line);
      if (entry === null || entry.event.cursor !== stream.lastCursor + 1) {
        damage.set(name, `${entry === null ? (last ? 'a torn last line' : 'unreadable') : `cursor ${entry.event.cursor} after ${stream.lastCursor}`} from byte ${byte}; read up to cursor ${stream.lastCursor}`);
        break;
      }
      byte += Buffer.byteLength(line) + 1;
      stream.lastCursor = entry.event.cursor;
      const seq = (entry.event.data as { seq?: unknown } | null)?.seq;
      if (typeof seq === 'number' && seq > stream.lastSeq) stream.lastSeq = seq;
      stream.events.push(entry);
    }
  }
  if (stream !== null) stream.events = newest(stream.events, bounds, notBefore);
  return { stream, names, damage };
}

/** The newest events within the ring's bounds, all of them contiguous up to the last. */
function newest(events: RetainedEvent[], bounds: ReadBounds, notBefore: number): RetainedEvent[] {
  let bytes = 0;
  let first = events.length;
  while (first > 0) {
    const entry = events[first - 1]!;
    if (events.length - first >= bounds.retain || bytes + entry.bytes > bounds.retainBytes || entry.event.ts < notBefore) break;
    bytes += entry.bytes;
    first -= 1;
  }
  return events.slice(first);
}

/** The file's text up to `limit` bytes, or what kept it from being read. */
function readBounded(path: string, limit: number): string | { problem: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return { problem: `unreadable: ${(error as Error).message}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: 'not a regular file' };
    const buffer = Buffer.alloc(Math.min(stat.size, limit));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    // Over its bound: read up to it, and a line cut there reads as damage.
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
