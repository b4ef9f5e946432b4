import { defineMethod } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { AgentPrompt } from '../prompt.ts';
import { BudgetCrossing } from '../usage.ts';

/** What an inbox item is of: an agent's attention state, a budget crossed, an agent's pane that failed. */
export const INBOX_STATES = ['blocked', 'done', 'budget', 'failed'] as const;

/** How the pane of a `failed` item ended: a non-zero status, or the signal that killed it (its name, `SIGKILL`). */
export const PaneFailure = Type.Object({
  code: Nullable(Type.Number({ description: 'The exit status; null when a signal ended it.' })),
  signal: Nullable(Type.String({ description: 'The signal that ended it, by name (`SIGTERM`); null for an exit status.' })),
});
export type PaneFailure = Static<typeof PaneFailure>;

/** `exit 3` or `signal SIGKILL`, as a notification says it. */
export function failureText(failure: PaneFailure): string {
  return failure.signal !== null ? `signal ${failure.signal}` : `exit ${failure.code}`;
}

/**
 * One thing a person must act on: a pane's agent entered blocked or done, or its pane exited with a
 * failure. One per pane and turn, kept (across restarts too) until acknowledged; a newer one of the
 * same pane replaces it.
 */
export const InboxItem = Type.Object(
  {
    id: Type.Number({ description: "Counts up for the daemon's state folder; never reused." }),
    pane: Type.Object({ id: Type.String(), name: Nullable(Type.String()) }),
    agent: Nullable(Type.String()),
    state: Literals(INBOX_STATES),
    seq: Type.Number({ description: 'The state_change_seq and the event cursor of the `agent.attention` that made it.' }),
    cursor: Type.Number(),
    ts: Type.Number({ description: 'When it entered the inbox (ms since the epoch).' }),
    title: Nullable(Type.String()),
    message: Type.String(),
    prompt: Nullable(AgentPrompt, {
      description: 'What the blocked agent asks (docs/protocol.md, "The prompt"), read with the blocked state; null for done.',
    }),
    budget: Type.Optional(BudgetCrossing),
    exit: Type.Optional(PaneFailure),
  },
  {
    $id: 'InboxItem',
    description:
      'One thing a person must act on: a pane\'s agent entered blocked or done, or its pane exited with a failure (`failed`). One per pane and turn, kept (across restarts too) until acknowledged; a newer one of the same pane replaces it.',
  },
);
export type InboxItem = Static<typeof InboxItem>;

/** Items kept at most; the oldest go first beyond it (one per pane at most, so only many panes reach it). */
export const MAX_INBOX_ITEMS = 1000;

export const INBOX_LIST = defineMethod({
  name: 'inbox.list',
  summary: 'The attention inbox: every unacknowledged blocked, done, budget or failed item, oldest first.',
  params: Type.Object({}, STRICT),
  result: Type.Object({ items: Type.Array(InboxItem) }),
  errors: [],
});

export const INBOX_ACK = defineMethod({
  name: 'inbox.ack',
  summary: 'Acknowledge inbox items by id, or all of them; focusing or answering a pane acknowledges its items too.',
  params: Type.Object({
    ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { maxItems: MAX_INBOX_ITEMS })),
    all: Type.Optional(Type.Boolean()),
  }, STRICT),
  result: Type.Object({ acknowledged: Type.Array(Type.Number()) }),
  errors: ['invalid_params'],
});
