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
