import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ENVELOPE_FIELDS, type EventEnvelope } from '../notifications.ts';
import { defineMethod, defineNotification } from '../method.ts';
import { AGENT_STATES, type AgentState } from '../states.ts';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { CorralError } from '../errors.ts';
import { inGroup, isGroupTarget } from '../pane-target.ts';
import { AgentInfo } from './agent.ts';
import { AgentPrompt } from '../prompt.ts';
import { InboxItem } from './inbox.ts';
import { PaneInfo } from './pane.ts';
import { PolicyDecision, PolicyStatus } from './policy.ts';
import { AgentUsage, BudgetCrossing } from '../usage.ts';

/** Every kind of event the stream carries (docs/events.md). */
export const EVENT_KINDS = [
  'pane.created',
  'pane.exited',
  'pane.removed',
  'agent.detected',
  'agent.stateChanged',
  'agent.seen',
  'agent.released',
  'agent.attention',
  'agent.queueChanged',
  'agent.promptChanged',
  'metadata.changed',
  'workspace.stateChanged',
  'inbox.added',
  'inbox.acknowledged',
  'policy.decided',
  'policy.changed',
  'agent.usageChanged',
  'budget.crossed',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

const agentState = Literals(AGENT_STATES);
const agentName = Nullable(Type.String());
const exit = Type.Object({ exitCode: Nullable(Type.Number()), signal: Nullable(Type.Number()) });
/**
 * Since 2.7 each agent event carries the pane's agent after the change, as the daemon computed it (as
 * `agent.get` answers, without `composer`), so no client reads it back; absent only in events a daemon
 * before 2.7 logged.
 */
const info = Type.Optional(AgentInfo);

/** The `data` of each kind. `seq` is the daemon-wide state_change_seq of the agent change behind it. */
export const EVENT_DATA = {
  'pane.created': PaneInfo,
  'pane.exited': exit,
  'pane.removed': exit,
  'agent.detected': Type.Object({ agent: Type.String(), previous: Nullable(Type.String()), state: agentState, seq: Type.Number(), info }),
  'agent.stateChanged': Type.Object({
    agent: agentName,
    from: agentState,
    to: agentState,
    rule: Type.String(),
    source: Type.String(),
    seen: Type.Boolean(),
    revision: Type.Number(),
    seq: Type.Number(),
    recovered: Type.Optional(
      Type.Literal(true, { description: 'A state of a pane taken back after a daemon restart, until it settles: recomputed, not a new turn.' }),
    ),
    outputEndedAt: Type.Optional(
      Type.Number({
        description: "On a recovered change to a state reached while no daemon ran: when the pty host last saw the pane's output (ms since the epoch).",
      }),
    ),
    prompt: Type.Optional(AgentPrompt),
    info,
  }),
  'agent.seen': Type.Object(
    { agent: agentName, state: agentState, seen: Type.Boolean(), seq: Type.Number(), info },
    { description: 'Only the seen flag moved (a blocked agent looked at, say): what a client shows did not change.' },
  ),
  'agent.released': Type.Object({ agent: agentName, state: agentState, seq: Type.Number() }),
  'agent.attention': Type.Object({
    agent: agentName,
    state: Literals(['blocked', 'done']),
    from: agentState,
    title: Nullable(Type.String()),
    message: Type.String(),
    seq: Type.Number(),
    prompt: Type.Optional(AgentPrompt),
  }),
  'agent.queueChanged': Type.Object(
    { agent: agentName, queued: Type.Number(), seq: Type.Number(), info },
    { description: "The steering queue's count changed; the state did not (seq is the last state change's)." },
  ),
  'agent.promptChanged': Type.Object(
    { agent: agentName, prompt: AgentPrompt, seq: Type.Number(), info },
    { description: "The agent stays blocked and its prompt changed: a new dialog (a new id), or the same one drawn further (its id kept); seq is the last state change's." },
  ),
  'metadata.changed': Type.Object({ metadata: Nullable(Type.Record(Type.String(), Type.Unknown())), info }),
  'workspace.stateChanged': Type.Object(
    { workspace: Type.String(), from: Nullable(agentState), to: Nullable(agentState), counts: Nullable(Type.Record(agentState, Type.Number())) },
    {
      description:
        "A workspace's rollup state changed (`agent.list` .workspaces); `from` is null for a workspace new to the rollup, `to` null once it has no agent.",
    },
  ),
  'inbox.added': Type.Object(
    { item: InboxItem },
    { description: 'An item entered the attention inbox (once per item, never again, across restarts too): right after its `agent.attention`.' },
  ),
  'inbox.acknowledged': Type.Object(
    { ids: Type.Array(Type.Number()) },
    {
      description:
        "Items of the pane left the inbox: acknowledged, or acted on (focus, answer, a state left). A newer item of the pane replaces its older one with no event of its own; a removed pane's go with its `pane.removed`.",
    },
  ),
  'policy.decided': Type.Object(
    { decision: PolicyDecision },
    { description: 'The approval policy decided a complete prompt (docs/policy.md): once per prompt id, after its answer was typed or refused.' },
  ),
  'policy.changed': Type.Object(
    { status: PolicyStatus },
    { description: 'The approval policy was paused, resumed or reloaded: its status now (pane is null).' },
  ),
  'agent.usageChanged': Type.Object(
    { agent: agentName, usage: AgentUsage },
    { description: "What the agent spent grew (docs/usage.md): at most one per pane every few seconds, the newest figures." },
  ),
  'budget.crossed': Type.Object(
    { crossing: BudgetCrossing },
    { description: 'A budget reached 80% or 100% of its limit in its period: once each, across restarts too; the pane is the one whose usage crossed it.' },
  ),
} satisfies Record<EventKind, TSchema>;

export type EventData = { [K in EventKind]: Static<(typeof EVENT_DATA)[K]> };

export type CorralEvent<K extends EventKind = EventKind> = EventEnvelope<K, EventData[K]>;

/** Any event, as a union discriminated by `kind`: checking `kind` narrows `data`. */
export type AnyCorralEvent = { [K in EventKind]: CorralEvent<K> }[EventKind];

/**
 * A parsed subscription filter. Terms of one field are alternatives (OR); fields combine with AND.
 * An empty list means "any". Kind patterns may end in `*` (`agent.*`).
 */
export interface EventFilter {
  kinds: string[];
  panes: string[];
  agents: string[];
  workspaces: string[];
  states: AgentState[];
}

const FILTER_FIELDS = { kind: 'kinds', pane: 'panes', agent: 'agents', workspace: 'workspaces', state: 'states' } as const;
export const MAX_FILTER_TERMS = 64;

/**
 * Parses the filter language: whitespace-separated `field:value[,value...]` terms, with fields
 * `kind` (an event kind, or a prefix ending in `*`), `pane` (id or name), `agent` (agent id),
 * `workspace` (a workspace name) and `state` (an agent state).
 * Example: `kind:agent.attention,pane.exited agent:claude workspace:api`.
 */
export function parseEventFilter(text: string, field = 'filter'): EventFilter {
  const filter: EventFilter = { kinds: [], panes: [], agents: [], workspaces: [], states: [] };
  const bad = (message: string): never => {
    throw new CorralError('invalid_params', `"${field}" ${message}; write terms like kind:agent.attention pane:NAME agent:claude`, {
      field,
    });
  };
  let count = 0;
  for (const term of text.trim().split(/\s+/).filter(Boolean)) {
    const colon = term.indexOf(':');
    if (colon <= 0) bad(`term "${term}" is not field:value`);
    const name = term.slice(0, colon);
    if (!Object.hasOwn(FILTER_FIELDS, name)) bad(`field "${name}" is not one of ${Object.keys(FILTER_FIELDS).join(', ')}`);
    const key = FILTER_FIELDS[name as keyof typeof FILTER_FIELDS];
    for (const value of term.slice(colon + 1).split(',')) {
      if (value === '') bad(`term "${term}" has an empty value`);
      if (key === 'kinds' && !isKindPattern(value)) bad(`"${value}" is not an event kind (${EVENT_KINDS.join(', ')}) or a prefix ending in *`);
      if (key === 'states' && !isAgentState(value)) bad(`"${value}" is not an agent state (${AGENT_STATES.join(', ')})`);
      count += 1;
      if (count > MAX_FILTER_TERMS) bad(`has more than ${MAX_FILTER_TERMS} values`);
      (filter[key] as string[]).push(value);
    }
  }
  return filter;
}

function isAgentState(value: string): value is AgentState {
  return (AGENT_STATES as readonly string[]).includes(value);
}

/** The workspace an event is about: its pane's (the id before the last `:`), or a rollup's own. */
function workspaceOf(event: EventEnvelope): string | null {
  if (event.pane !== null) return event.pane.id.slice(0, event.pane.id.lastIndexOf(':'));
  return event.kind === 'workspace.stateChanged' ? (event.data as { workspace: string }).workspace : null;
}

/** The state an event leaves its agent (or workspace) in; pane events and metadata carry none. */
function stateOf(event: EventEnvelope): AgentState | null {
  const data = event.data as { to?: AgentState | null; state?: AgentState };
  switch (event.kind) {
    case 'agent.stateChanged':
    case 'workspace.stateChanged':
      return data.to ?? null;
    case 'agent.detected':
    case 'agent.seen':
    case 'agent.released':
    case 'agent.attention':
      return data.state ?? null;
    default:
      return null;
  }
}

function isKindPattern(value: string): boolean {
  if (value.endsWith('*')) return EVENT_KINDS.some((kind) => kind.startsWith(value.slice(0, -1)));
  return (EVENT_KINDS as readonly string[]).includes(value);
}

/**
 * A `pane:` value: an id or name, or a group as targets take it (`@W`, a pattern with `*` or `?`). A
 * pane's workspace is the part of its id before the last `:`; `@W` also takes W's own
 * `workspace.stateChanged` events, which name no pane.
 */
function paneTermMatches(term: string, event: EventEnvelope): boolean {
  const pane = event.pane;
  if (!isGroupTarget(term)) return pane !== null && (term === pane.id || term === pane.name);
  if (pane !== null) return inGroup(term, { ...pane, workspace: pane.id.slice(0, pane.id.lastIndexOf(':')) });
  if (event.kind !== 'workspace.stateChanged' || !term.startsWith('@')) return false;
  return inGroup(term, { id: '', name: null, workspace: (event.data as { workspace: string }).workspace });
}

/** Whether an event passes a filter; `agent` is the pane's agent when the event was published. */
export function matchesEventFilter(filter: EventFilter, event: EventEnvelope, agent: string | null): boolean {
  if (filter.kinds.length > 0 && !filter.kinds.some((k) => (k.endsWith('*') ? event.kind.startsWith(k.slice(0, -1)) : event.kind === k))) {
    return false;
  }
  if (filter.panes.length > 0 && !filter.panes.some((p) => paneTermMatches(p, event))) return false;
  if (filter.agents.length > 0 && !(agent !== null && filter.agents.includes(agent))) return false;
  if (filter.workspaces.length > 0 && !filter.workspaces.includes(workspaceOf(event) ?? '')) return false;
  if (filter.states.length > 0) {
    const state = stateOf(event);
    if (state === null || !filter.states.includes(state)) return false;
  }
  return true;
}

/** Parsed by the handler (parseEventFilter), which refuses a bad term with invalid_params naming `filter`. */
const filterText = Type.String({
  maxLength: 4096,
  description: 'field:value[,value] terms: kind, pane (an id, a name, @WORKSPACE or a pattern), agent, workspace, state (docs/events.md)',
});

const cursor = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** The stream a cursor belongs to: each daemon start is a new epoch (returned with every cursor). */
const epoch = Type.String({ minLength: 1, maxLength: 64 });

/** The consistent view a subscriber starts from: taken at the returned cursor. */
export const EventsSnapshot = Type.Object(
  {
    panes: Type.Array(PaneInfo),
    agents: Type.Array(AgentInfo), // panes with an identified agent
    stateChangeSeq: Type.Number(),
  },
  { $id: 'EventsSnapshot', description: 'The consistent view a subscriber starts from: taken at the returned cursor.' },
);
export type EventsSnapshot = Static<typeof EventsSnapshot>;

/** Any event of the stream, as `events.read` returns it. */
const CorralEventSchema = Type.Object({ ...ENVELOPE_FIELDS, kind: Literals(EVENT_KINDS), data: Type.Union(Object.values(EVENT_DATA)) });

export const EVENTS_SUBSCRIBE = defineMethod({
  name: 'events.subscribe',
  summary: 'Stream events on this connection as `event` notifications, from `since` (exclusive) or from now.',
  params: Type.Object({ since: Type.Optional(cursor), epoch: Type.Optional(epoch), filter: Type.Optional(filterText) }, STRICT),
  result: Type.Object({ cursor: Type.Number(), epoch: Type.String(), snapshot: EventsSnapshot }),
  errors: ['cursor_too_old', 'stream_changed'],
});

export const EVENTS_UNSUBSCRIBE = defineMethod({
  name: 'events.unsubscribe',
  summary: "Stop this connection's event stream.",
  params: Type.Object({}, STRICT),
  result: Type.Object({ unsubscribed: Type.Boolean() }),
  errors: [],
});

export const MAX_EVENTS_READ = 10_000;
/** One `events.read` reply holds events of at most this many bytes (as JSON lines), and at least one: the reply stays inside the 1 MiB frame. */
export const MAX_EVENTS_READ_BYTES = 768 << 10;

export const EVENTS_READ = defineMethod({
  name: 'events.read',
  summary: 'Retained events after `since` (exclusive), oldest first, at most `limit` and 768 KiB of them; `more` when some were left.',
  params: Type.Object({ since: Type.Optional(cursor), epoch: Type.Optional(epoch), filter: Type.Optional(filterText), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EVENTS_READ })) }, STRICT),
  result: Type.Object({ cursor: Type.Number(), epoch: Type.String(), oldest: Type.Number(), events: Type.Array(CorralEventSchema), more: Type.Boolean() }),
  errors: ['cursor_too_old', 'stream_changed'],
});

export const EVENTS_CURSOR = defineMethod({
  name: 'events.cursor',
  summary: 'The cursor of the last published event (0 before any) with its epoch, and the oldest retained cursor: a place to resume from later.',
  params: Type.Object({}, STRICT),
  result: Type.Object({ cursor: Type.Number(), epoch: Type.String(), oldest: Type.Number() }),
  errors: [],
});

/** Sent once before the daemon closes the connection of a subscriber that fell behind. */
export const EVENTS_DROPPED = defineNotification({
  name: 'events.dropped',
  summary: 'The subscription ended: the subscriber fell too far behind (slow_consumer).',
  params: Type.Object({ code: Type.Literal('slow_consumer'), message: Type.String(), cursor: Type.Number() }),
});
