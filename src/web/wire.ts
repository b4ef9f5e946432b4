/**
 * What a page and `corral web` say to each other over the WebSocket: JSON-RPC 2.0, one message a
 * frame, declared like the daemon's methods (src/protocol/method.ts: TypeBox schemas) and checked the
 * same way (src/protocol/params-check.ts). The daemon's own methods that a page may call pass through unchanged (PASSED_THROUGH).
 */
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { defineMethod, defineNotification, type MethodDecl } from '../protocol/method.ts';
import { AGENT_ANSWER, AGENT_PROMPT, AGENT_QUEUE, AGENT_CLEAR_QUEUE } from '../protocol/methods/agent-act.ts';
import { AGENT_EXPLAIN, AGENT_GET, AgentInfo } from '../protocol/methods/agent.ts';
import { AGENT_FOCUS, AGENT_READ } from '../protocol/methods/agent-query.ts';
import { EVENTS_READ } from '../protocol/methods/events.ts';
import { PUSH_KEY, PUSH_LIST, PUSH_SET, PUSH_SUBSCRIBE } from '../protocol/methods/push.ts';
import { POLICY_CHECK, POLICY_PAUSE, POLICY_RESUME, PolicyStatus } from '../protocol/methods/policy.ts';
import { paneCols, paneRows } from '../protocol/pane-size.ts';
import { paneTarget } from '../protocol/pane-target.ts';
import { Literals, Nullable, STRICT } from '../protocol/schema.ts';

/** Errors only `corral web` answers, beside the daemon's (src/protocol/errors.ts), in the same shape. */
export const WEB_ERRORS = {
  lease_required: { rpc: 2001, summary: "typing into, resizing or emptying the queue of a pane needs its control lease: take it first (lease.take)" },
  lease_held: { rpc: 2002, summary: 'another viewer holds the control lease of this pane; wait until it is given back' },
  too_many_terminals: { rpc: 2003, summary: 'this page mirrors its maximum of terminals; close one first' },
} as const;
export type WebErrorCode = keyof typeof WEB_ERRORS;

/** A web method: a daemon-style declaration whose `webErrors` are the web server's own. */
export interface WebMethodDecl<P, R, N extends string = string> extends MethodDecl<P, R, N> {
  readonly webErrors: readonly WebErrorCode[];
}

function defineWebMethod<const N extends string, PS extends TObject, RS extends TSchema>(
  decl: Parameters<typeof defineMethod<N, PS, RS>>[0] & { readonly webErrors: readonly WebErrorCode[] },
): WebMethodDecl<Static<PS>, Static<RS>, N> {
  return defineMethod(decl) as WebMethodDecl<Static<PS>, Static<RS>, N>;
}

/** The largest message a page may send; the server closes a socket that sends more (1009). */
export const WEB_MAX_MESSAGE_BYTES = 256 * 1024;

/** Daemon methods a page calls as they are: the daemon validates and answers them. */
export const PASSED_THROUGH = [AGENT_GET, AGENT_EXPLAIN, AGENT_READ, AGENT_FOCUS, AGENT_ANSWER, AGENT_PROMPT, AGENT_QUEUE, AGENT_CLEAR_QUEUE, EVENTS_READ, PUSH_KEY, PUSH_SUBSCRIBE, PUSH_LIST, PUSH_SET, POLICY_CHECK, POLICY_PAUSE, POLICY_RESUME] as const;

/** An inbox item as a card carries it. */
export const CardInbox = Type.Object({
  id: Type.Number(),
  state: Literals(['blocked', 'done', 'failed']),
  ts: Type.Number({ description: 'When it entered the inbox (ms since the epoch).' }),
});
export type CardInbox = Static<typeof CardInbox>;

/** One agent as the board shows it: the daemon's AgentInfo, the last lines of its screen, its inbox item. */
export const BoardCard = Type.Object({
  info: AgentInfo,
  tail: Type.Array(Type.String(), {
    description: "The last few lines with text of the pane's screen: a blocked agent's dialog, else what is above its composer box.",
  }),
  inbox: Nullable(CardInbox, { description: "The pane's unacknowledged attention inbox item (docs/events.md), or null: the agent needs the person." }),
  host: Type.Optional(
    Type.String({ description: 'With `corral web --fleet`: the host the agent runs on; `info.id` is then host-qualified (`w1:p1@build`), as every target and id on this socket is.' }),
  ),
  stale: Type.Optional(Type.Boolean({ description: "True while the card's host is away: `info` is its last known state, never idle by default." })),
});
export type BoardCard = Static<typeof BoardCard>;

/** Who holds a pane's control lease: `holder` names the viewer, `mine` is true on the holder's own socket. */
export const LeaseInfo = Type.Object({ id: Type.String(), holder: Nullable(Type.String()), mine: Type.Boolean(), since: Nullable(Type.Number()) });
export type LeaseInfo = Static<typeof LeaseInfo>;

/** A host of the fleet as the board shows it (docs/fleet.md): connected, connecting, or offline since when and why. */
export const WebHost = Type.Object({
  name: Type.String(),
  state: Literals(['connecting', 'connected', 'offline']),
  since: Type.Number({ description: 'When the host entered this state (ms since the epoch).' }),
  reason: Nullable(Type.String(), { description: "Why the host is away, in ssh's own words; null when connected." }),
  why: Nullable(Type.String(), { description: 'That reason in a word or two (`unreachable`, `auth failed`, `timed out`, ...; src/client/fleet/short-reason.ts); null when connected.' }),
  policy: Nullable(PolicyStatus, {
    description: "The host's approval policy (docs/policy.md), live from its daemon's `policy.changed` events while connected; null while away, or from a daemon that has none (before 2.7).",
  }),
});
export type WebHost = Static<typeof WebHost>;

const Board = Type.Object({
  cards: Type.Array(BoardCard),
  leases: Type.Array(LeaseInfo),
  hosts: Type.Array(WebHost, { description: 'Every host of the fleet with `corral web --fleet`; empty for one daemon.' }),
  policy: Nullable(PolicyStatus, { description: "The daemon's approval policy (docs/policy.md); null with `--fleet`, where each host runs its own (`hosts[].policy`), or from a daemon that has none." }),
});

export const BOARD_GET = defineWebMethod({
  name: 'board.get',
  summary: 'Every agent as a card, and who holds the control lease of each pane.',
  params: Type.Object({}, STRICT),
  result: Board,
  errors: [],
  webErrors: [],
});

/** The most card ids one board.watch names: more than a page could show. */
export const MAX_WATCHED = 10_000;

export const BOARD_WATCH = defineWebMethod({
  name: 'board.watch',
  summary: "The cards this page shows on its screen now: working agents' tails are read again (board.tails) only for cards some page shows.",
  params: Type.Object({ ids: Type.Array(paneTarget, { maxItems: MAX_WATCHED, description: 'Pane ids of the cards on screen; [] for none.' }) }, STRICT),
  result: Type.Object({ watching: Type.Number() }),
  errors: [],
  webErrors: [],
});

export const TERMINAL_OPEN = defineWebMethod({
  name: 'terminal.open',
  summary: "Mirror a pane's terminal on this socket (terminal.output); viewing never resizes the pane.",
  params: Type.Object({ target: paneTarget }, STRICT),
  result: Type.Object({ id: Type.String(), cols: Type.Number(), rows: Type.Number(), lease: LeaseInfo }),
  errors: ['pane_not_found', 'pane_exited', 'pane_external'],
  webErrors: ['too_many_terminals'],
});

export const TERMINAL_CLOSE = defineWebMethod({
  name: 'terminal.close',
  summary: 'Stop mirroring the pane on this socket, and give back its lease if this socket held it.',
  params: Type.Object({ target: paneTarget }, STRICT),
  result: Type.Object({ closed: Type.Boolean() }),
  errors: [],
  webErrors: [],
});

export const TERMINAL_INPUT = defineWebMethod({
  name: 'terminal.input',
  summary: 'Type into the pane: only the holder of its control lease may.',
  params: Type.Object({ target: paneTarget, data: Type.String({ minLength: 1, maxLength: 64 * 1024 }) }, STRICT),
  result: Type.Object({ sent: Type.Number() }),
  errors: ['pane_not_found', 'pane_exited', 'pane_input_full'],
  webErrors: ['lease_required'],
});

export const TERMINAL_RESIZE = defineWebMethod({
  name: 'terminal.resize',
  summary: "Resize the pane's PTY on purpose: only the holder of its control lease may.",
  params: Type.Object({ target: paneTarget, cols: paneCols, rows: paneRows }, STRICT),
  result: Type.Object({ cols: Type.Number(), rows: Type.Number() }),
  errors: ['pane_not_found', 'pane_exited'],
  webErrors: ['lease_required'],
});

export const LEASE_TAKE = defineWebMethod({
  name: 'lease.take',
  summary: "Take the pane's control lease: one writer at a time, seen by every viewer, given back on close.",
  params: Type.Object({ target: paneTarget }, STRICT),
  result: LeaseInfo,
  errors: ['pane_not_found'],
  webErrors: ['lease_held'],
});

export const LEASE_RELEASE = defineWebMethod({
  name: 'lease.release',
  summary: "Give back the pane's control lease.",
  params: Type.Object({ target: paneTarget }, STRICT),
  result: LeaseInfo,
  errors: ['pane_not_found'],
  webErrors: [],
});

export const PANE_EVENTS = defineWebMethod({
  name: 'pane.events',
  summary: "The pane's recent events, from the daemon of its host (`events.read` with a pane filter).",
  params: Type.Object({ target: paneTarget, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) }, STRICT),
  result: Type.Object({ events: Type.Array(Type.Object({ kind: Type.String(), ts: Type.Number(), data: Type.Unknown() })) }),
  errors: ['pane_not_found'],
  webErrors: [],
});

export const INBOX_DISMISS = defineWebMethod({
  name: 'inbox.dismiss',
  summary:
    "Dismiss a card's attention inbox item on purpose: the daemon of its pane acknowledges it (inbox.ack), so every page, top and every other client sees the reminder go at once. The agent's state, and so the needs you count, stays as it is.",
  params: Type.Object({ target: paneTarget, item: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "The item's id, as the card carries it (`inbox.id`)." }) }, STRICT),
  result: Type.Object({ dismissed: Type.Boolean({ description: 'False when the item had already left the inbox (answered, seen or dismissed elsewhere).' }) }),
  errors: ['pane_not_found'],
  webErrors: [],
});

export const HOST_POLICY = defineWebMethod({
  name: 'host.policy',
  summary:
    "With `--fleet`: pause or resume the approval policy of one host, as `policy.pause` / `policy.resume` on its daemon (the kill switch of each host's line). Any signed-in page may, as with the one daemon's. A host away is `daemon_unreachable`; a name not in the fleet (or a plain `corral web`) `host_not_found`.",
  params: Type.Object(
    {
      host: Type.String({ minLength: 1, maxLength: 63, description: 'The host, as the fleet names it (`hosts[].name`; `local` for this machine).' }),
      paused: Type.Boolean({ description: 'true: pause it; false: resume it.' }),
    },
    STRICT,
  ),
  result: PolicyStatus,
  errors: [],
  webErrors: [],
});

export const WEB_METHODS = [BOARD_GET, BOARD_WATCH, PANE_EVENTS, TERMINAL_OPEN, TERMINAL_CLOSE, TERMINAL_INPUT, TERMINAL_RESIZE, LEASE_TAKE, LEASE_RELEASE, INBOX_DISMISS, HOST_POLICY] as const;

export const BOARD_CARD = defineNotification({
  name: 'board.card',
  summary: 'An agent appeared or changed: its new card.',
  params: BoardCard,
});

export const BOARD_TAILS = defineNotification({
  name: 'board.tails',
  summary: "Working agents' screen tails read again (every few seconds, for the cards some page shows), all in one message.",
  params: Type.Object({ tails: Type.Array(Type.Object({ id: Type.String(), tail: Type.Array(Type.String()) })) }),
});

export const BOARD_REMOVED = defineNotification({
  name: 'board.removed',
  summary: 'A pane left the board (its agent was released or the pane removed).',
  params: Type.Object({ id: Type.String() }),
});

export const BOARD_RESET = defineNotification({
  name: 'board.reset',
  summary: 'The whole board again: after this socket fell behind, or the daemon came back.',
  params: Board,
});

export const BOARD_HOSTS = defineNotification({
  name: 'board.hosts',
  summary: "A host of the fleet changed state (connected, connecting, offline) or its approval policy did: every host again.",
  params: Type.Object({ hosts: Type.Array(WebHost) }),
});

export const BOARD_POLICY = defineNotification({
  name: 'board.policy',
  summary: "The daemon's approval policy was paused, resumed or reloaded: its status now.",
  params: Type.Object({ policy: Nullable(PolicyStatus) }),
});

export const ATTENTION = defineNotification({
  name: 'attention',
  summary: 'An item entered the attention inbox (an agent entered blocked or done, its pane failed, or it reached 80% or 100% of a budget), outside the cooldown: what a notification shows.',
  params: Type.Object({
    id: Type.String(),
    item: Type.Number(),
    host: Nullable(Type.String(), { description: "The pane's host with `--fleet` (item numbers are each host's own), else null." }),
    name: Nullable(Type.String()),
    state: Literals(['blocked', 'done', 'failed', 'budget']),
    title: Type.String(),
    body: Type.String(),
  }),
});

export const TERMINAL_OUTPUT = defineNotification({
  name: 'terminal.output',
  summary: "A chunk of a mirrored pane's output, or a full redraw (`redraw`).",
  params: Type.Object({ id: Type.String(), data: Type.String(), redraw: Type.Boolean() }),
});

export const TERMINAL_ENDED = defineNotification({
  name: 'terminal.ended',
  summary: 'The mirrored pane exited or was removed.',
  params: Type.Object({ id: Type.String(), reason: Type.String() }),
});

export const LEASE_CHANGED = defineNotification({
  name: 'lease.changed',
  summary: "A pane's control lease was taken or given back.",
  params: LeaseInfo,
});

export const WEB_NOTIFICATIONS = [BOARD_CARD, BOARD_TAILS, BOARD_REMOVED, BOARD_RESET, BOARD_HOSTS, BOARD_POLICY, ATTENTION, TERMINAL_OUTPUT, TERMINAL_ENDED, LEASE_CHANGED] as const;

/** How long a card's screen tail is, in lines. */
export const TAIL_LINES = 4;
