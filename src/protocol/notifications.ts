import { Type, type Static } from '@sinclair/typebox';
import { defineNotification } from './method.ts';
import { Nullable } from './schema.ts';

/** The envelope's fields besides `kind` and `data`, which each kind declares (methods/events.ts). */
export const ENVELOPE_FIELDS = {
  cursor: Type.Number(),
  ts: Type.Number({ description: 'ms since the epoch' }),
  pane: Nullable(Type.Object({ id: Type.String(), name: Nullable(Type.String()) })),
};

/**
 * The envelope of every server-to-client event notification. `cursor` is monotonic and never reused;
 * `pane` is null for daemon-wide events. Kinds and their `data` are declared with the events stream.
 */
export const EventEnvelope = Type.Object({ ...ENVELOPE_FIELDS, kind: Type.String(), data: Type.Unknown() });
export type EventEnvelope<Kind extends string = string, Data = unknown> = Omit<Static<typeof EventEnvelope>, 'kind' | 'data'> & { kind: Kind; data: Data };

export const EVENT = defineNotification({
  name: 'event',
  summary: 'One event pushed to a subscribed connection.',
  params: EventEnvelope,
});

/**
 * Sent once when a client has shut its sending side while its requests are still pending (a wait, a
 * subscription): a client that only half-closed reads it and still gets its replies; for a client that
 * has gone, the write fails, so the daemon learns it and cancels what it waited for. Clients ignore it.
 */
export const SERVER_PROBE = defineNotification({
  name: 'server.probe',
  summary: 'Ignore: tells the daemon whether a client that stopped sending still reads.',
  params: Type.Object({}, { additionalProperties: false }),
});
