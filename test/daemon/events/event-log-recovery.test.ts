import assert from 'node:assert/strict';
import { closeSync, cpSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { EventHub } from '../../../src/daemon/events/event-hub.ts';
import { EventLog } from '../../../src/daemon/events/event-log.ts';
import { currentBoot, EVENT_MARK_BLOCK, EVENT_MARK_FILE } from '../../../src/daemon/events/event-mark.ts';
import { makeTempDir } from '../../../harness/daemon.ts';

const pane = { id: 'w1:p1', name: 'api' };
const bounds = { retain: 100, retainBytes: 1 << 20 };

/** A logger whose lines the test reads. */
function capturing() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, warnings: () => lines.filter((line) => line.level === 40) };
}

/** One daemon's life over the folder, a hub fed from the log as startEvents builds it. */
function life(dir: string, boot = currentBoot(), freshStart = 1000) {
  const { log, warnings } = capturing();
  const { log: eventLog, loaded } = EventLog.open(dir, bounds, { epoch: `new-${Math.random()}`, start: freshStart }, log, Date.now(), boot);
  const hub = new EventHub({ ...bounds, log, epoch: loaded.epoch, firstCursorAfter: loaded.start, restored: loaded, persist: (entry) => eventLog.append(entry) });
  /** `count` events whose data names their round, each with a seq; answers them as handed out. */
  const publish = (round: string, count: number, seqFrom = 0) =>
    Array.from({ length: count }, (_, i) => hub.publish('agent.released', pane, { agent: round, state: 'idle', seq: seqFrom + i + 1 }, round));
  return { hub, loaded, eventLog, warnings, publish, stop: () => (hub.dispose(), eventLog.dispose()) };
}

const segmentsIn = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('seg-')).sort();

/** Two daemons' lives, each stopped cleanly: the log ends in the second's segment. */
function twoLives(dir: string) {
  const first = life(dir);
  const handed = first.publish('one', 30);
  first.stop();
  const second = life(dir);
  handed.push(...second.publish('two', 30, 30));
  return { second, handed, epoch: second.hub.epoch };
}

function overwriteMiddle(path: string): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(200), 0, 200, Math.floor(statSync(path).size / 2) - 100);
  closeSync(fd);
}

const damages: Record<string, (path: string) => void> = {
  'overwritten with 200 zero bytes in its middle': overwriteMiddle,
  'cut in half': (path) => truncateSync(path, Math.floor(statSync(path).size / 2)),
  deleted: (path) => unlinkSync(path),
};

describe('the event log after damage', () => {
  for (const [what, damage] of Object.entries(damages)) {
    it(`newest segment ${what} after a clean stop: cursors and seqs go on after the last handed out, in the same epoch, and the log says so`, () => {
      const dir = join(makeTempDir(), 'events');
      try {
        const { second, handed, epoch } = twoLives(dir);
        second.stop();
        const last = handed.at(-1)!.cursor;
        damage(join(dir, segmentsIn(dir).at(-1)!));
        const third = life(dir);
        assert.equal(third.hub.epoch, epoch);
        assert.equal(third.hub.cursor, last, 'the stream goes on after the last cursor handed out');
        assert.ok(third.loaded.lastSeq >= 60, `seq goes on after 60, not ${third.loaded.lastSeq}`);
        for (const event of handed) assert.equal(third.hub.at(event.cursor), undefined, `cursor ${event.cursor} names nothing now`);
        third.hub.checkResumable(last, epoch); // the client that saw the last one resumes with every new event
        assert.throws(() => third.hub.checkResumable(last - 1, epoch), { code: 'cursor_too_old' });
        const next = third.publish('three', 1, third.loaded.lastSeq)[0]!;
        assert.equal(next.cursor, last + 1);
        const warning = third.warnings().find((line) => String(line.msg).startsWith('event log lost events'));
        assert.ok(warning, `a warning: ${JSON.stringify(third.warnings())}`);
        assert.match(String(warning.file), /seg-\d{16}\.ndjson$/);
        assert.match(String(warning.msg), new RegExp(`cursors go on after ${last}`));
        assert.equal(segmentsIn(dir).length, 1, 'the segments whose events cannot be resumed from are gone; the new one is there');
        third.stop();
        const fourth = life(dir);
        assert.deepEqual([fourth.hub.epoch, fourth.hub.cursor, fourth.warnings()], [epoch, last + 1, []], 'the next start reads a whole log again');
        fourth.stop();
      } finally {
        rmSync(join(dir, '..'), { recursive: true, force: true });
      }
    });
  }

  it('a kill -9 leaves the log whole: the next daemon goes on at its last cursor and every cursor resumes', () => {
    const dir = join(makeTempDir(), 'events');
    const crashed = join(dir, '..', 'crashed');
    try {
      const { second, handed, epoch } = twoLives(dir);
      cpSync(dir, crashed, { recursive: true }); // the folder as a killed daemon leaves it: the mark open
      second.stop();
      const third = life(crashed);
      assert.deepEqual([third.hub.epoch, third.hub.cursor, third.warnings()], [epoch, handed.at(-1)!.cursor, []]);
      third.hub.checkResumable(handed[40]!.cursor, epoch);
      assert.deepEqual(third.hub.at(handed[41]!.cursor)!.event, handed[41]);
      third.stop();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('after a kill -9, a cut newest segment, a deleted one, or another boot of the machine: cursors go on after the reservation', () => {
    for (const damage of [(path: string) => truncateSync(path, Math.floor(statSync(path).size / 2)), (path: string) => unlinkSync(path), null]) {
      const dir = join(makeTempDir(), 'events');
      const crashed = join(dir, '..', 'crashed');
      try {
        const { second, handed, epoch } = twoLives(dir);
        cpSync(dir, crashed, { recursive: true });
        second.stop();
        if (damage) damage(join(crashed, segmentsIn(crashed).at(-1)!));
        const third = life(crashed, damage ? currentBoot() : 'another-boot');
        assert.equal(third.hub.epoch, epoch);
        assert.ok(third.hub.cursor >= handed.at(-1)!.cursor + 1, `cursor ${third.hub.cursor} above every cursor handed out`);
        assert.ok(third.loaded.lastSeq >= 60 + EVENT_MARK_BLOCK - 30, `seq ${third.loaded.lastSeq} above the reservation`);
        assert.throws(() => third.hub.checkResumable(handed.at(-1)!.cursor, epoch), { code: 'cursor_too_old' }, 'what came after it may be lost: not resumed silently');
        assert.ok(third.warnings().some((line) => String(line.msg).startsWith('event log lost events')), `a warning: ${JSON.stringify(third.warnings())}`);
        third.stop();
      } finally {
        rmSync(join(dir, '..'), { recursive: true, force: true });
      }
    }
  });

  it('a damaged older segment: the stream goes on at the last cursor; cursors in it answer cursor_too_old, later ones resume', () => {
    const dir = join(makeTempDir(), 'events');
    try {
      const { second, handed, epoch } = twoLives(dir);
      second.stop();
      overwriteMiddle(join(dir, segmentsIn(dir)[0]!));
      const third = life(dir);
      assert.deepEqual([third.hub.epoch, third.hub.cursor], [epoch, handed.at(-1)!.cursor]);
      assert.throws(() => third.hub.checkResumable(handed[10]!.cursor, epoch), { code: 'cursor_too_old' });
      third.hub.checkResumable(handed[29]!.cursor, epoch);
      assert.deepEqual(third.hub.at(handed[30]!.cursor)!.event, handed[30]);
      assert.ok(third.warnings().some((line) => line.msg === 'event log segment damaged: read up to the damage'), `a warning: ${JSON.stringify(third.warnings())}`);
      third.stop();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('a torn write of the mark leaves its other copy, which still bounds what was handed out', () => {
    const dir = join(makeTempDir(), 'events');
    try {
      const { second, handed, epoch } = twoLives(dir);
      second.stop();
      const mark = join(dir, EVENT_MARK_FILE);
      const slots = readFileSync(mark, 'utf8');
      // The last copy written is the closed one: tear it, whichever slot it is in.
      const closedSlot = slots.slice(0, 512).includes('"closed":true') ? 0 : 1;
      const fd = openSync(mark, 'r+');
      writeSync(fd, Buffer.alloc(100), 0, 100, closedSlot * 512 + 50);
      closeSync(fd);
      const third = life(dir);
      assert.deepEqual([third.hub.epoch, third.hub.cursor, third.warnings()], [epoch, handed.at(-1)!.cursor, []], 'the open copy before it, the same boot, a whole log');
      third.stop();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('an event the log could not write: the next daemon goes on after the mark', () => {
    const dir = join(makeTempDir(), 'events');
    try {
      const { second, epoch } = twoLives(dir);
      // The next write fails, as on a full disk: the segment's descriptor swapped for a read-only one.
      const writing = second.eventLog as unknown as { fd: number };
      closeSync(writing.fd);
      writing.fd = openSync(join(dir, segmentsIn(dir).at(-1)!), 'r');
      const lost = second.publish('lost', 1, 60)[0]!;
      second.stop();
      const third = life(dir);
      assert.equal(third.hub.epoch, epoch);
      assert.ok(third.hub.cursor >= lost.cursor, 'the event handed out but not written is not handed out again');
      assert.ok(third.warnings().some((line) => String(line.damage).includes('could not be written')), `a warning: ${JSON.stringify(third.warnings())}`);
      third.stop();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('without a mark, as an earlier version left the log: a whole log goes on; a damaged one starts a new epoch above it', () => {
    const dir = join(makeTempDir(), 'events');
    try {
      const { second, handed, epoch } = twoLives(dir);
      second.stop();
      unlinkSync(join(dir, EVENT_MARK_FILE));
      const third = life(dir);
      assert.deepEqual([third.hub.epoch, third.hub.cursor, third.warnings()], [epoch, handed.at(-1)!.cursor, []]);
      third.stop();
      unlinkSync(join(dir, EVENT_MARK_FILE));
      overwriteMiddle(join(dir, segmentsIn(dir).at(-1)!));
      // A new stream's start is above any cursor an earlier one handed out (index.ts: one per 10 µs of its life at the most).
      const fourth = life(dir, currentBoot(), 1_000_000);
      assert.notEqual(fourth.hub.epoch, epoch);
      assert.ok(fourth.hub.start >= handed.at(-1)!.cursor, `start ${fourth.hub.start}`);
      assert.throws(() => fourth.hub.checkResumable(handed.at(-1)!.cursor, epoch), { code: 'stream_changed' });
      assert.throws(() => fourth.hub.checkResumable(handed.at(-1)!.cursor - 1), { code: 'stream_changed' }, 'without the epoch too');
      assert.ok(fourth.warnings().some((line) => String(line.msg).includes('a new stream begins')), `a warning: ${JSON.stringify(fourth.warnings())}`);
      fourth.stop();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });
});
