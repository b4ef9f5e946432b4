import { EVENTS_CURSOR, EVENTS_READ, EVENTS_SUBSCRIBE, EVENTS_UNSUBSCRIBE, MAX_EVENTS_READ_BYTES, matchesEventFilter, parseEventFilter, type CorralEvent } from '../../protocol/methods/events.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { implement, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { EventHub } from './event-hub.ts';
import type { Subscriptions } from './subscriptions.ts';

const DEFAULT_READ_LIMIT = 1000;

export function eventHandlers(hub: EventHub, subscriptions: Subscriptions, registry: PaneRegistry, agents: AgentService): HandlerBinding[] {
  return [
    // Synchronous on purpose: the snapshot and the cursor are taken in one turn, so they agree.
    implement(EVENTS_SUBSCRIBE, ({ since: asked, filter, epoch }, { connection }) => {
      const since = asked === undefined ? undefined : hub.resolveSince(asked);
      if (since !== undefined) hub.checkResumable(since, epoch);
      const cursor = hub.cursor;
      const panes = registry.list();
      const snapshot = {
        panes: panes.map((pane) => pane.info()),
        agents: panes.map((pane) => agents.info(pane)).filter((info) => info.agent !== null),
        stateChangeSeq: agents.stateChangeSeq,
      };
      subscriptions.subscribe(connection, parseEventFilter(filter ?? ''), since ?? cursor);
      return { cursor, epoch: hub.epoch, snapshot };
    }),

    implement(EVENTS_UNSUBSCRIBE, (_params, { connection }) => ({ unsubscribed: subscriptions.unsubscribe(connection) })),

    implement(EVENTS_CURSOR, () => ({ cursor: hub.cursor, epoch: hub.epoch, oldest: hub.oldest })),

    implement(EVENTS_READ, ({ since, filter, limit, epoch }) => {
      const from = since !== undefined ? hub.resolveSince(since) : hub.oldest - 1;
      hub.checkResumable(from, since !== undefined ? epoch : undefined);
      const parsed = parseEventFilter(filter ?? '');
      const max = limit ?? DEFAULT_READ_LIMIT;
      const events: CorralEvent[] = [];
      let bytes = 0;
      let cursor = from + 1;
      for (; cursor <= hub.cursor && events.length < max; cursor += 1) {
        const entry = hub.at(cursor)!;
        if (!matchesEventFilter(parsed, entry.event, entry.agent)) continue;
        if (events.length > 0 && bytes + entry.bytes > MAX_EVENTS_READ_BYTES) break;
        bytes += entry.bytes;
        events.push(entry.event);
      }
      return { cursor: cursor - 1, epoch: hub.epoch, oldest: hub.oldest, events, more: cursor <= hub.cursor };
    }),
  ];
}
