import { defineMethod, returns } from '../method.ts';
import type { AgentPrompt } from '../prompt.ts';
import { Type } from '@sinclair/typebox';
import { STRICT } from '../schema.ts';

/**
 * One thing a person must act on: a pane's agent entered blocked or done. One per pane and turn,
 * kept (across restarts too) until acknowledged; a newer one of the same pane replaces it.
 */
export interface InboxItem {
  /** Counts up for the daemon's state folder; never reused. */
  id: number;
  pane: { id: string; name: string | null };
  agent: string | null;
  state: 'blocked' | 'done';
  /** The state_change_seq and the event cursor of the `agent.attention` that made it. */
  seq: number;
  cursor: number;
  /** When it entered the inbox (ms since the epoch). */
  ts: number;
  title: string | null;
  message: string;
  /** What the blocked agent asks (docs/protocol.md, "The prompt"), read with the blocked state; null for done. */
  prompt: AgentPrompt | null;
}

/** Items kept at most; the oldest go first beyond it (one per pane at most, so only many panes reach it). */
export const MAX_INBOX_ITEMS = 1000;

export const INBOX_LIST = defineMethod({
  name: 'inbox.list',
  summary: 'The attention inbox: every unacknowledged blocked or done item, oldest first.',
  params: Type.Object({}, STRICT),
  result: returns<{ items: InboxItem[] }>(),
  errors: [],
});

export const INBOX_ACK = defineMethod({
  name: 'inbox.ack',
  summary: 'Acknowledge inbox items by id, or all of them; focusing or answering a pane acknowledges its items too.',
  params: Type.Object({
    ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { maxItems: MAX_INBOX_ITEMS })),
    all: Type.Optional(Type.Boolean()),
  }, STRICT),
  result: returns<{ acknowledged: number[] }>(),
  errors: ['invalid_params'],
});
