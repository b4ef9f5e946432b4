// The cost of the durable event log (src/daemon/events/event-log.ts): events per second published
// through the hub with the log against without it, bytes per event on disk, and the start time of a
// real daemon (`bin/corral daemon` until it listens) with a full log against one with none.
// Run: node --import tsx bench/event-log.ts   (CORRAL_BENCH_EVENTS, default 200000; CORRAL_BENCH_STARTS, default 3)
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../src/daemon/config/index.ts';
import { EventHub } from '../src/daemon/events/event-hub.ts';
import { EventLog } from '../src/daemon/events/event-log.ts';
import { eventLogDir } from '../src/daemon/events/index.ts';
import { createLogger } from '../src/daemon/logger.ts';
import { makeTempDir, startDaemon } from '../harness/daemon.ts';

const EVENTS = Number(process.env.CORRAL_BENCH_EVENTS ?? 200_000);
const STARTS = Number(process.env.CORRAL_BENCH_STARTS ?? 3);
const log = createLogger('silent');
const bounds = { retain: DEFAULT_CONFIG.events.retain, retainBytes: DEFAULT_CONFIG.events.retainBytes };
const pane = { id: 'w1:p12', name: 'api-writer' };

/** A typical event: an agent's state change, as most of a busy daemon's events are. */
function publishOne(hub: EventHub, i: number): void {
  hub.publish(
    'agent.stateChanged',
    pane,
    { agent: 'claude', from: i % 2 ? 'working' : 'idle', to: i % 2 ? 'idle' : 'working', rule: 'screen_rule', source: 'screen:prompt_box', seen: true, revision: i, seq: i },
    'claude',
  );
}

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

/** Publishes EVENTS events; with `dir`, through the log there. Answers events/s and, with a log, bytes per event. */
function publishRate(dir: string | null): { eventsPerSecond: number; bytesPerEvent?: number } {
  let eventLog: EventLog | null = null;
  let written = 0;
  const options = { ...bounds, log, epoch: 'bench', firstCursorAfter: 0 };
  if (dir !== null) eventLog = EventLog.open(dir, bounds, { epoch: 'bench', start: 0 }, log).log;
  const hub = new EventHub({
    ...options,
    ...(eventLog
      ? {
          persist: (entry) => {
            eventLog!.append(entry);
            written += 1;
          },
        }
      : {}),
  });
  const started = process.hrtime.bigint();
  for (let i = 1; i <= EVENTS; i += 1) publishOne(hub, i);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  eventLog?.dispose();
  hub.dispose();
  const rate = Math.round(EVENTS / seconds);
  if (dir === null) return { eventsPerSecond: rate };
  // The folder keeps the newest segments only: bytes per event are measured over the events they hold.
  const lines = readdirSync(dir).reduce((sum, name) => sum + readdirLines(join(dir, name)), 0);
  return { eventsPerSecond: rate, bytesPerEvent: Math.round(folderBytes(dir) / lines), ...(written !== EVENTS ? { written } : {}) };
}

function readdirLines(path: string): number {
  // Each segment: one header line, then one line per event.
  const text = readFileSync(path, 'utf8');
  return Math.max(0, text.split('\n').filter((line: string) => line !== '').length - 1);
}

/** Ms from spawning `corral daemon` to its listening; the daemon is stopped and its pty host ended after. */
async function startOnce(dir: string): Promise<number> {
  const times: number[] = [];
  {
    const started = performance.now();
    const daemon = await startDaemon({ dir, timeoutMs: 60_000 });
    times.push(performance.now() - started);
    await daemon.stop();
    for (const pid of daemon.hostPids()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
  }
  return times[0]!;
}

const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);

/** Ms to read a log folder back as a daemon does at start (EventLog.open and the hub's ring). */
function openMs(dir: string): number {
  const started = performance.now();
  const { log: opened, loaded } = EventLog.open(dir, bounds, { epoch: 'other', start: 0 }, log);
  const hub = new EventHub({ ...bounds, log, epoch: loaded.epoch, firstCursorAfter: loaded.start, restored: loaded });
  const elapsed = performance.now() - started;
  hub.dispose();
  opened.dispose();
  return Number(elapsed.toFixed(1));
}

const work = makeTempDir('corral-bench-log-');
try {
  const without = publishRate(null);
  const withLog = publishRate(join(work, 'rate'));
  // A full log: the ring's count of events in the daemon's own folder, then a daemon started over it.
  const full = join(work, 'full');
  mkdirSync(full, { mode: 0o700 });
  const socket = join(full, 'corral.sock');
  const fullLog = EventLog.open(eventLogDir(join(full, 'state', 'corral'), socket), bounds, { epoch: 'bench', start: 0 }, log).log;
  const filler = new EventHub({ ...bounds, log, epoch: 'bench', firstCursorAfter: 0, persist: (entry) => fullLog.append(entry) });
  for (let i = 1; i <= bounds.retain; i += 1) publishOne(filler, i);
  fullLog.dispose();
  const fullBytes = folderBytes(eventLogDir(join(full, 'state', 'corral'), socket));
  const empty = join(work, 'empty');
  mkdirSync(empty, { mode: 0o700 });
  const readFullMs = openMs(eventLogDir(join(full, 'state', 'corral'), socket));
  // Alternated, so that a machine busier in one half does not favour the other.
  const none: number[] = [];
  const filled: number[] = [];
  await startOnce(empty); // the first start of a run also builds and caches the bundle
  for (let i = 0; i < STARTS; i += 1) {
    none.push(await startOnce(empty));
    filled.push(await startOnce(full));
  }
  const startEmptyMs = median(none);
  const startFullMs = median(filled);
  const result = {
    events: EVENTS,
    withoutLog: without,
    withLog,
    fullLog: { events: bounds.retain, bytes: fullBytes, readMs: readFullMs },
    startMs: { none: startEmptyMs, full: startFullMs, samples: { none, full: filled } },
  };
  console.log(JSON.stringify(result));
  console.log(
    `event log: ${withLog.eventsPerSecond} events/s published with it, ${without.eventsPerSecond} without; ${withLog.bytesPerEvent} bytes/event; ` +
      `daemon start ${startEmptyMs} ms with no log, ${startFullMs} ms with a full one (${bounds.retain} events, ${(fullBytes / 1048576).toFixed(1)} MiB, read back in ${readFullMs} ms)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
