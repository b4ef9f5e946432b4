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
export type { RetainedEvent } from './event-ring.ts';
export { publishMetadataEvents, type MetadataSource } from './metadata-events.ts';

export interface DaemonEvents extends Disposable {
  readonly hub: EventHub;
  readonly subscriptions: Subscriptions;
  readonly handlers: HandlerBinding[];
}

/** The events part of the daemon: the hub fed by panes and agents, subscriptions and their methods. */
export function startEvents(options: {
  registry: PaneRegistry;
  agents: AgentService;
  log: Logger;
  retain: number;
  subscriberBufferBytes: number;
}): DaemonEvents {
  const hub = new EventHub({ retain: options.retain, log: options.log });
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
