import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AgentService } from '../agents/agent-service.ts';
import type { DaemonPart } from '../rpc/handler.ts';
import type { Logger } from '../logger.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { EventHub } from './event-hub.ts';
import { EventLog, type LoadedLog } from './event-log.ts';
import { announcedPanes } from './pane-history.ts';
import { publishMetadataEvents, type MetadataSource } from './metadata-events.ts';
import { publishDaemonEvents } from './event-sources.ts';
import { eventHandlers } from './handlers.ts';
import { SLOW_CONSUMER_STALL_MS } from './subscriber.ts';
import { Subscriptions } from './subscriptions.ts';

export { EventHub, DEFAULT_RETAIN, type PaneRef } from './event-hub.ts';
export { DEFAULT_SUBSCRIBER_BUFFER_BYTES, SLOW_CONSUMER_STALL_MS } from './subscriber.ts';
export { MAX_EVENT_RING_BYTES, type RetainedEvent } from './event-ring.ts';
export { paneHistories, paneNumbersAfter, type PaneHistory } from './pane-history.ts';
export { EventLog, MAX_EVENT_LOG_AGE_MS, EVENT_LOG_KEPT_SEGMENTS, EVENT_LOG_FSYNC_MS, type LoadedLog } from './event-log.ts';

interface DaemonEvents extends DaemonPart {
  readonly hub: EventHub;
  readonly subscriptions: Subscriptions;
}

/** How far apart the first cursors of daemons started a second apart are. */
const CURSORS_PER_SECOND = 100_000;

/** The durable event log's folder for a daemon socket, beside its pane state file (one per socket). */
export function eventLogDir(stateDir: string, socketPath: string): string {
  return join(stateDir, `events-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}`);
}

/** A stream of its own: used when no log continues one. */
function freshStream(): { epoch: string; start: number } {
  // A new stream is a new epoch, and its cursors start above any an earlier stream on this machine
  // could have handed out (one per 10 µs since that stream started, at the most), so an old cursor
  // of a lost log is never taken for a new one, with or without its epoch.
  const startedAt = Date.now();
  return { epoch: `${startedAt.toString(36)}-${randomBytes(3).toString('hex')}`, start: Math.floor(startedAt / 1000) * CURSORS_PER_SECOND };
}

/**
 * Opens the durable log in `dir` (a stream of its own when it holds none, or it cannot be read), to be
 * read before the agents start numbering changes: their state_change_seq continues after `loaded.lastSeq`.
 */
export function openEventLog(dir: string, bounds: { retain: number; retainBytes: number }, log: Logger): { eventLog: EventLog | null; loaded: LoadedLog } {
  const fresh = freshStream();
  try {
    const { log: eventLog, loaded } = EventLog.open(dir, bounds, fresh, log);
    if (loaded.events.length > 0 || loaded.epoch !== fresh.epoch) {
      log.info({ dir, epoch: loaded.epoch, events: loaded.events.length, cursor: loaded.lastCursor, seq: loaded.lastSeq }, 'event log continued');
    }
    return { eventLog, loaded };
  } catch (error) {
    log.error({ dir, err: error }, 'cannot open the event log: events will not outlive this daemon');
    return { eventLog: null, loaded: { ...fresh, lastCursor: fresh.start, lastSeq: 0, events: [], history: [] } };
  }
}

/** The events part of the daemon: the hub fed by panes and agents, subscriptions and their methods. */
export function startEvents(options: {
  registry: PaneRegistry;
  agents: AgentService;
  log: Logger;
  retain: number;
  retainBytes: number;
  subscriberBufferBytes: number;
  /** The durable log and what it held; without it the stream is new and lives as long as the daemon. */
  durable?: { eventLog: EventLog | null; loaded: LoadedLog };
  /** Where display metadata comes from, published as `pane.metadataChanged`; none: no such events. */
  metadata?: MetadataSource;
}): DaemonEvents {
  const fresh = freshStream();
  const durable = options.durable ?? { eventLog: null, loaded: { ...fresh, lastCursor: fresh.start, lastSeq: 0, events: [], history: [] } };
  const { loaded, eventLog } = durable;
  const hub = new EventHub({
    retain: options.retain,
    retainBytes: options.retainBytes,
    log: options.log,
    epoch: loaded.epoch,
    firstCursorAfter: loaded.start,
    restored: { events: loaded.events, lastCursor: loaded.lastCursor },
    ...(eventLog ? { persist: (entry) => eventLog.append(entry) } : {}),
  });
  const subscriptions = new Subscriptions(hub, { maxBufferedBytes: options.subscriberBufferBytes, stallMs: SLOW_CONSUMER_STALL_MS });
  const sources = publishDaemonEvents(hub, options.registry, options.agents, announcedPanes(loaded.history));
  const metadata = options.metadata ? publishMetadataEvents(hub, options.registry, options.metadata, options.agents) : null;
  return {
    hub,
    subscriptions,
    handlers: eventHandlers(hub, subscriptions, options.registry, options.agents),
    dispose: () => {
      metadata?.dispose();
      sources.dispose();
      subscriptions.dispose();
      hub.dispose();
      eventLog?.dispose();
    },
  };
}
