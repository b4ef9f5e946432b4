import { randomBytes } from 'node:crypto';
import type { Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { HandlerBinding } from '../handler.ts';
import type { Logger } from '../logger.ts';
import type { PaneRegistry } from '../pane-registry.ts';
import { EventHub } from './event-hub.ts';
import { publishDaemonEvents } from './event-sources.ts';
import { eventHandlers } from './handlers.ts';
import { SLOW_CONSUMER_STALL_MS } from './subscriber.ts';
import { Subscriptions } from './subscriptions.ts';

export { EventHub, DEFAULT_RETAIN, type PaneRef } from './event-hub.ts';
export { DEFAULT_SUBSCRIBER_BUFFER_BYTES, SLOW_CONSUMER_STALL_MS } from './subscriber.ts';
export { MAX_EVENT_RING_BYTES, type RetainedEvent } from './event-ring.ts';
export { publishMetadataEvents, type MetadataSource } from './metadata-events.ts';

export interface DaemonEvents extends Disposable {
  readonly hub: EventHub;
  readonly subscriptions: Subscriptions;
  readonly handlers: HandlerBinding[];
}

/** How far apart the first cursors of daemons started a second apart are. */
export const CURSORS_PER_SECOND = 100_000;

/** The events part of the daemon: the hub fed by panes and agents, subscriptions and their methods. */
export function startEvents(options: {
  registry: PaneRegistry;
  agents: AgentService;
  log: Logger;
  retain: number;
  retainBytes: number;
  subscriberBufferBytes: number;
}): DaemonEvents {
  // Each daemon's stream is a new epoch, and its cursors start above any an earlier daemon on this
  // machine could have handed out (one per 10 µs since that daemon started, at the most), so an old
  // cursor is never taken for a new one, with or without its epoch.
  const startedAt = Date.now();
  const hub = new EventHub({
    retain: options.retain,
    retainBytes: options.retainBytes,
    log: options.log,
    epoch: `${startedAt.toString(36)}-${randomBytes(3).toString('hex')}`,
    firstCursorAfter: Math.floor(startedAt / 1000) * CURSORS_PER_SECOND,
  });
  const subscriptions = new Subscriptions(hub, { maxBufferedBytes: options.subscriberBufferBytes, stallMs: SLOW_CONSUMER_STALL_MS });
  const sources = publishDaemonEvents(hub, options.registry, options.agents);
  return {
    hub,
    subscriptions,
    handlers: eventHandlers(hub, subscriptions, options.registry, options.agents),
    dispose: () => {
      sources.dispose();
      subscriptions.dispose();
      hub.dispose();
    },
  };
}
