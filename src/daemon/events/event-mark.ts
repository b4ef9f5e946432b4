import { createHash } from 'node:crypto';
import { closeSync, constants, fdatasyncSync, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/**
 * Cursors (and seqs) one flushed write of the mark reserves: it is flushed once per this many events,
 * never per event (a flush per 1000 took a third of the log's rate, bench/event-log.ts). A log that
 * lost events goes on after the reservation, so the block is only a gap in the numbers.
 */
export const EVENT_MARK_BLOCK = 10_000;

/** The mark's file in the log's folder. */
export const EVENT_MARK_FILE = 'mark';

/** Each copy of the mark takes one slot of this size; two slots, written in turn. */
const SLOT_BYTES = 512;

/**
 * What the log's folder says was handed out, kept apart from the segments so that damage to them
 * cannot hide it: no cursor above `cursor` and no seq above `seq` was ever handed out in `epoch`.
 */
export interface EventMark {
  epoch: string;
  start: number;
  /** While a daemon runs, a reservation taken before any cursor up to it is handed out; once `closed`, the last one. */
  cursor: number;
  /** A reservation of state_change_seq, taken before an event carries one up to it. */
  seq: number;
  /** Written by a daemon that stopped cleanly after its segment was flushed: the log then ends at `cursor`. */
  closed: boolean;
  /** False once an event could not be written to the log: the log then no longer holds all that was handed out. */
  complete: boolean;
  /** The segment the log ends in, or was last known to (its file name); null before the first. */
  segment: string | null;
  /** The machine's boot the mark was written in: a machine crash may take the log's unflushed tail. */
  boot: string;
}

export type MarkRead = { found: 'absent' } | { found: 'unusable'; detail: string } | { found: 'mark'; mark: EventMark; generation: number };

/** This boot of the machine, or 'unknown' (never the same as another). */
export function currentBoot(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The newest whole copy of the mark: a torn write leaves the other slot, which still bounds what was handed out. */
export function readMark(path: string): MarkRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { found: 'absent' };
    return { found: 'unusable', detail: (error as Error).message };
  }
  try {
    if (!fstatSync(fd).isFile()) return { found: 'unusable', detail: 'not a regular file' };
    const buffer = Buffer.alloc(2 * SLOT_BYTES);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    let best: { mark: EventMark; generation: number } | null = null;
    for (let slot = 0; slot < 2; slot += 1) {
      const copy = parseSlot(buffer.subarray(slot * SLOT_BYTES, Math.min(read, (slot + 1) * SLOT_BYTES)));
      if (copy !== null && (best === null || copy.generation > best.generation)) best = copy;
    }
    return best === null ? { found: 'unusable', detail: 'no whole copy of the mark' } : { found: 'mark', ...best };
  } finally {
    closeSync(fd);
  }
}

function parseSlot(bytes: Buffer): { mark: EventMark; generation: number } | null {
  const text = bytes.toString('utf8').trimEnd();
  const space = text.indexOf(' ');
  if (space < 0) return null;
  const json = text.slice(space + 1);
  if (text.slice(0, space) !== digest(json)) return null;
  try {
    const { generation, ...mark } = JSON.parse(json) as EventMark & { generation: number };
    if (!Number.isSafeInteger(generation) || typeof mark.epoch !== 'string' || ![mark.start, mark.cursor, mark.seq].every(Number.isSafeInteger)) return null;
    return { mark, generation };
  } catch {
    return null;
  }
}

function digest(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/**
 * Writes the mark in place, each copy into the slot the last one did not use: a crash between two
 * writes leaves the older copy, a torn write one of them whole. The file keeps its size, so a full
 * disk does not stop the mark from saying the log missed an event.
 */
export class EventMarkWriter {
  private constructor(
    private readonly fd: number,
    private generation: number,
  ) {}

  /** Opens (or makes, 0600) the mark for writing; `generation` is that of the copy read at start. */
  static open(path: string, generation: number): EventMarkWriter {
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
      return new EventMarkWriter(fd, generation);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** `flush`: on the disk before returning, as a reservation must be; a crash of the daemon alone loses no write anyway. */
  write(mark: EventMark, flush: boolean): void {
    this.generation += 1;
    const json = JSON.stringify({ ...mark, generation: this.generation });
    const text = `${digest(json)} ${json}`;
    if (Buffer.byteLength(text) >= SLOT_BYTES) throw new Error(`the event mark takes ${Buffer.byteLength(text)} bytes, over its slot`);
    const slot = Buffer.alloc(SLOT_BYTES, ' ');
    slot.write(text);
    slot[SLOT_BYTES - 1] = 0x0a;
    writeSync(this.fd, slot, 0, SLOT_BYTES, (this.generation % 2) * SLOT_BYTES);
    if (flush) fdatasyncSync(this.fd);
  }

  dispose(): void {
    closeSync(this.fd);
  }
}
