import { defineNotification, returns } from './method.ts';

/**
 * The envelope of every server-to-client event notification. `cursor` is monotonic and never reused;
 * `pane` is null for daemon-wide events. Kinds and their `data` are declared with the events stream.
 */
export interface EventEnvelope<Kind extends string = string, Data = unknown> {
  cursor: number;
  ts: number; // ms since the epoch
  kind: Kind;
  pane: { id: string; name: string | null } | null;
  data: Data;
}

export const EVENT = defineNotification({
  name: 'event',
  summary: 'One event pushed to a subscribed connection.',
  params: returns<EventEnvelope>(),
});

/**
 * Sent once when a client has shut its sending side while its requests are still pending (a wait, a
 * subscription): a client that only half-closed reads it and still gets its replies; for a client that
 * has gone, the write fails, so the daemon learns it and cancels what it waited for. Clients ignore it.
 */
export const SERVER_PROBE = defineNotification({
  name: 'server.probe',
  summary: 'Ignore: tells the daemon whether a client that stopped sending still reads.',
  params: returns<Record<string, never>>(),
});
