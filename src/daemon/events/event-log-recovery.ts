import type { RetainedEvent } from './event-ring.ts';
import type { SegmentsRead } from './event-log-read.ts';
import type { EventMark, MarkRead } from './event-mark.ts';

/** What the log held at start: the stream to continue, and its retained events oldest first. */
export interface LoadedLog {
  epoch: string;
  start: number;
  lastCursor: number;
  lastSeq: number;
  /** What the ring starts with: contiguous up to `lastCursor`. */
  events: RetainedEvent[];
  /** The stream's events as far as the log could be read, for the panes' histories: `events`, unless the log was damaged. */
  history: RetainedEvent[];
}

/**
 * How the stream goes on: `whole`, the log holds all that was handed out; `fresh`, there was none;
 * `skipped`, the log lost events, so cursors and seqs go on after the highest ever handed out (the
 * mark's) with nothing retained; `restarted`, neither the log nor its mark can tell, so a new epoch begins.
 */
export type Recovery = { how: 'whole' | 'fresh' } | { how: 'skipped' | 'restarted'; file: string; damage: string };

/** The stream to continue from what the segments and the mark say, and how. */
export function recoverStream(read: SegmentsRead, found: MarkRead, boot: string, fresh: { epoch: string; start: number }): { loaded: LoadedLog; recovery: Recovery } {
  const stream = read.stream;
  const newEpoch = (file: string, damage: string) => ({
    // Above every cursor the log names too, in case the earlier stream handed out more than the clock allows for.
    loaded: { ...fresh, start: Math.max(fresh.start, stream?.lastCursor ?? 0), lastCursor: Math.max(fresh.start, stream?.lastCursor ?? 0), lastSeq: stream?.lastSeq ?? 0, events: [], history: [] },
    recovery: { how: 'restarted' as const, file, damage },
  });
  if (found.found === 'unusable') return newEpoch('mark', `the mark is unusable (${found.detail})`);
  if (found.found === 'absent') {
    // A log written before the mark existed: trusted as it reads, unless its end is damaged.
    if (stream === null) return read.names.length === 0 ? { loaded: { ...fresh, lastCursor: fresh.start, lastSeq: 0, events: [], history: [] }, recovery: { how: 'fresh' } } : newEpoch(read.names.at(-1)!, 'no segment could be read');
    const tail = damageFrom(read, stream.segment);
    if (tail !== null) return newEpoch(tail.file, `${tail.damage}, and no mark tells what was handed out`);
    return { loaded: whole(stream), recovery: { how: 'whole' } };
  }
  const mark = found.mark;
  const ends = stream !== null && stream.epoch === mark.epoch ? stream : null;
  const lost = whyIncomplete(read, ends, mark, boot);
  if (lost === null) {
    return { loaded: ends !== null ? whole(ends) : { epoch: mark.epoch, start: mark.start, lastCursor: mark.cursor, lastSeq: mark.seq, events: [], history: [] }, recovery: { how: 'whole' } };
  }
  return {
    loaded: {
      epoch: mark.epoch,
      start: mark.start,
      lastCursor: Math.max(mark.cursor, stream?.lastCursor ?? 0),
      lastSeq: Math.max(mark.seq, stream?.lastSeq ?? 0),
      events: [],
      history: ends?.events ?? [],
    },
    recovery: { how: 'skipped', ...lost },
  };
}

function whole(stream: NonNullable<SegmentsRead['stream']>): LoadedLog {
  return { epoch: stream.epoch, start: stream.start, lastCursor: stream.lastCursor, lastSeq: stream.lastSeq, events: stream.events, history: stream.events };
}

/** Why the log may not hold every event the mark's daemon handed out, or null when it does. */
function whyIncomplete(read: SegmentsRead, ends: SegmentsRead['stream'], mark: EventMark, boot: string): { file: string; damage: string } | null {
  const newest = read.names.at(-1) ?? mark.segment ?? 'the log';
  if (!mark.complete) return { file: newest, damage: 'an event could not be written to the log while the daemon ran' };
  if (ends === null) {
    if (mark.closed && mark.cursor === mark.start && read.names.length === 0) return null;
    const tail = read.names.length > 0 ? damageFrom(read, read.names[0]!) : null;
    if (tail !== null && read.stream === null) return tail;
    return { file: mark.segment ?? newest, damage: read.names.length === 0 ? 'the log holds no segment' : read.stream === null ? 'no segment could be read' : `the log is of epoch ${read.stream.epoch}, its mark of ${mark.epoch}` };
  }
  const missing = mark.segment !== null && !read.names.includes(mark.segment) ? `${mark.segment} is missing` : null;
  if (mark.closed) {
    if (ends.lastCursor === mark.cursor) return null;
    const tail = damageFrom(read, ends.segment);
    return {
      file: tail?.file ?? mark.segment ?? ends.segment,
      damage: `${tail?.damage ?? missing ?? 'the log ends early'}: it ends at cursor ${ends.lastCursor}, but its daemon stopped after cursor ${mark.cursor}`,
    };
  }
  // The daemon ended without closing the mark (killed, crashed): the log is whole if nothing took from it.
  if (boot === 'unknown' || mark.boot !== boot) return { file: ends.segment, damage: 'its daemon did not stop cleanly and the machine restarted since: events of its last second may be lost' };
  if (missing !== null) return { file: mark.segment!, damage: missing };
  if (ends.lastCursor > mark.cursor) return { file: ends.segment, damage: `it goes on past cursor ${mark.cursor}, the highest its mark reserved` };
  return damageFrom(read, mark.segment !== null && mark.segment < ends.segment ? mark.segment : ends.segment);
}

/** The first damage in `segment` or a newer one: what the end of the log lost. */
function damageFrom(read: SegmentsRead, segment: string): { file: string; damage: string } | null {
  for (const name of read.names) {
    if (name < segment) continue;
    const damage = read.damage.get(name);
    if (damage !== undefined) return { file: name, damage };
  }
  return null;
}
