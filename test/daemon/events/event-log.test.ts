import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EventHub } from '../../../src/daemon/events/event-hub.ts';
import { EventLog, EVENT_LOG_KEPT_SEGMENTS } from '../../../src/daemon/events/event-log.ts';
import { createLogger } from '../../../src/daemon/logger.ts';
import { makeTempDir } from '../../../harness/daemon.ts';

const log = createLogger('silent');
const pane = { id: 'w1:p1', name: 'api' };
const fresh = { epoch: 'first', start: 1000 };

const segmentsIn = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('seg-')).sort();

/** One daemon's life over the folder: a hub fed from the log, as startEvents builds it. */
function life(dir: string, bounds = { retain: 100, retainBytes: 1 << 20 }, now = Date.now()) {
  const { log: eventLog, loaded } = EventLog.open(dir, bounds, { ...fresh, epoch: `new-${now}` }, log, now);
  const hub = new EventHub({ ...bounds, log, epoch: loaded.epoch, firstCursorAfter: loaded.start, restored: loaded, persist: (entry) => eventLog.append(entry) });
  return { hub, loaded, eventLog, end: () => (hub.dispose(), eventLog.dispose()) };
}

describe('the durable event log', () => {
  it('a new daemon continues the stream: the same epoch, cursors after the last, the seq, and old cursors resume exactly', () => {
    const dir = join(makeTempDir(), 'events');
    try {
      const first = life(dir);
      for (let i = 0; i < 5; i += 1) first.hub.publish('pane.exited', pane, { exitCode: i, signal: null });
      first.hub.publish('agent.released', pane, { agent: 'claude', state: 'idle', seq: 41 }, 'claude');
      const epoch = first.hub.epoch;
      first.eventLog.dispose(); // no hub.dispose, no flush of anything else: as a kill -9 leaves it
      const second = life(dir);
      assert.equal(second.hub.epoch, epoch);
      assert.equal(second.loaded.lastSeq, 41);
      assert.deepEqual([second.hub.oldest, second.hub.cursor], [first.hub.oldest, first.hub.cursor]);
      second.hub.checkResumable(first.hub.oldest - 1, epoch);
      assert.deepEqual(second.hub.at(first.hub.cursor - 1)!.event, first.hub.at(first.hub.cursor - 1)!.event);
      assert.equal(second.hub.at(first.hub.cursor)!.agent, 'claude', 'the agent filters match on is kept');
      const next = second.hub.publish('pane.removed', pane, { exitCode: 0, signal: null });
      assert.equal(next.cursor, first.hub.cursor + 1, 'no cursor handed out twice');
      assert.throws(() => second.hub.checkResumable(3, 'another'), { code: 'stream_changed' });
      second.end();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('is bounded: segments of a quarter of the ring, the oldest deleted; a cursor older than the log is cursor_too_old', () => {
    const dir = join(makeTempDir(), 'events');
    try {
      const bounds = { retain: 40, retainBytes: 1 << 20 };
      const first = life(dir, bounds);
      for (let i = 0; i < 500; i += 1) first.hub.publish('pane.exited', pane, { exitCode: i, signal: null });
      first.end();
      const segments = segmentsIn(dir);
      assert.ok(segments.length <= EVENT_LOG_KEPT_SEGMENTS + 1, `${segments.length} segments`);
      const second = life(dir, bounds);
      assert.equal(second.hub.cursor, fresh.start + 500);
      assert.equal(second.hub.oldest, fresh.start + 500 - 40 + 1, 'the ring holds what it held');
      second.hub.checkResumable(second.hub.oldest - 1);
      assert.throws(() => second.hub.checkResumable(second.hub.oldest - 2), { code: 'cursor_too_old' });
      second.end();
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('skips a torn last line, a segment that is not a regular file, and events older than the age bound', () => {
    const dir = join(makeTempDir(), 'events');
    try {
      const first = life(dir);
      for (let i = 0; i < 3; i += 1) first.hub.publish('pane.exited', pane, { exitCode: i, signal: null });
      first.end();
      const [segment] = segmentsIn(dir);
      appendFileSync(join(dir, segment!), '{"agent":null,"event":{"cursor":'); // a crash in the middle of a write
      mkdirSync(join(dir, 'seg-0000000000000001.ndjson')); // a folder where a segment would be
      symlinkSync('/dev/zero', join(dir, 'seg-0000000000000002.ndjson'));
      const second = life(dir);
      assert.equal(second.hub.cursor, fresh.start + 3, 'the torn event is not taken');
      second.hub.publish('pane.removed', pane, { exitCode: 0, signal: null });
      second.end();
      rmSync(join(dir, 'seg-0000000000000001.ndjson'), { recursive: true });
      rmSync(join(dir, 'seg-0000000000000002.ndjson'));
      const third = life(dir);
      assert.equal(third.hub.cursor, fresh.start + 4, 'the next daemon continues after the torn line too');
      third.end();
      const eightDays = 8 * 24 * 3600 * 1000;
      const later = life(dir, undefined, Date.now() + eightDays);
      assert.equal(later.loaded.events.length, 0, 'nothing older than the age bound is loaded');
      assert.equal(later.hub.cursor, fresh.start + 4, 'the stream still goes on after it');
      later.end();
      assert.ok(readdirSync(dir).every((name) => statSync(join(dir, name)).isFile()));
      assert.deepEqual(readdirSync(dir).length, 2, 'the segments older than the bound are deleted but the newest, which names the stream; the mark stays');
      assert.equal(segmentsIn(dir).length, 1);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });
});
