import { defineMethod } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';

/** What a push may be sent for: the inbox's item states (docs/web.md, "On your phone"). A spent budget (100%) is sent whatever a device chose. */
export const PUSH_STATES = ['blocked', 'done', 'budget', 'failed'] as const;
/** What a device receives when it names nothing: blocked, done, and an agent's pane that failed. */
export const DEFAULT_PUSH_STATES = ['blocked', 'done', 'failed'] as const;

/** Quiet hours, `HH:MM-HH:MM` in the daemon's local time (the end may be past midnight); `off` for none. */
export const QuietHours = Type.String({ maxLength: 11, pattern: '^(off|([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9])$', description: '`HH:MM-HH:MM` in local time, or `off`.' });
/** Workspace names a device is pushed for; empty: every workspace. */
const Workspaces = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 32, description: 'Only the items of panes in these workspaces; empty: every workspace.' });

/** A browser's subscription as `PushSubscription.toJSON()` gives it (the Push API; RFC 8291 keys). */
export const PushSubscriptionJson = Type.Object(
  {
    endpoint: Type.String({ minLength: 8, maxLength: 2048, description: 'The push service URL: https, or http on a loopback address (a local push service).' }),
    expirationTime: Type.Optional(Nullable(Type.Number())),
    keys: Type.Object({
      p256dh: Type.String({ minLength: 80, maxLength: 100, pattern: '^[A-Za-z0-9_-]+=*$', description: "The browser's P-256 public key, base64url." }),
      auth: Type.String({ minLength: 16, maxLength: 32, pattern: '^[A-Za-z0-9_-]+=*$', description: 'The 16-byte auth secret, base64url.' }),
    }, STRICT),
  },
  { ...STRICT, $id: 'PushSubscriptionJson', description: 'A browser push subscription, as PushSubscription.toJSON() gives it.' },
);
export type PushSubscriptionJson = Static<typeof PushSubscriptionJson>;

/** One device the daemon pushes to; its keys are never shown. */
export const PushDevice = Type.Object(
  {
    id: Type.String({ description: 'Stable: `d` and 10 hex digits of the endpoint hash.' }),
    endpoint: Type.String({ description: 'The push service origin and the start of its path (the rest is a secret of the device).' }),
    states: Type.Array(Literals(PUSH_STATES), { description: 'Which inbox items it receives (a spent budget whatever it says).' }),
    workspaces: Type.Optional(Type.Array(Type.String(), { description: 'Only the items of panes in these workspaces; empty or absent: every one.' })),
    quietHours: Type.Optional(Nullable(Type.String({ description: "Its own quiet hours (`HH:MM-HH:MM`, or `off`); null: `[notify] quiet_hours`." }))),
    label: Nullable(Type.String()),
    createdAt: Type.Number(),
    sent: Type.Number({ description: 'Pushes the push service took (201) for it since it subscribed.' }),
    lastStatus: Nullable(Type.Number({ description: 'The push service HTTP status of the last push; null before the first.' })),
  },
  { $id: 'PushDevice', description: 'One device the daemon pushes to.' },
);
export type PushDevice = Static<typeof PushDevice>;

export const PUSH_KEY = defineMethod({
  name: 'push.key',
  summary: "The daemon's VAPID public key (base64url), which a browser subscribes with (applicationServerKey); made on first use.",
  params: Type.Object({}, STRICT),
  result: Type.Object({ publicKey: Type.String(), contact: Nullable(Type.String()) }),
  errors: [],
});

export const PUSH_SUBSCRIBE = defineMethod({
  name: 'push.subscribe',
  summary: 'Add a device: the daemon pushes it each new inbox item of the states named (default blocked, done and failed), once. Subscribing the same endpoint again replaces it.',
  params: Type.Object(
    {
      subscription: PushSubscriptionJson,
      states: Type.Optional(Type.Array(Literals(PUSH_STATES), { minItems: 1, maxItems: PUSH_STATES.length })),
      label: Type.Optional(Type.String({ maxLength: 64 })),
    },
    STRICT,
  ),
  result: Type.Object({ device: PushDevice }),
  errors: ['invalid_params', 'push_limit'],
});

export const PUSH_SET = defineMethod({
  name: 'push.set',
  summary: "Change what a device receives: its states, its workspaces, its quiet hours, its label. Items held by quiet hours that are over now are pushed at once.",
  params: Type.Object(
    {
      id: Type.String({ minLength: 1, maxLength: 64 }),
      states: Type.Optional(Type.Array(Literals(PUSH_STATES), { minItems: 1, maxItems: PUSH_STATES.length })),
      workspaces: Type.Optional(Workspaces),
      quietHours: Type.Optional(Nullable(QuietHours)),
      label: Type.Optional(Type.String({ maxLength: 64 })),
    },
    STRICT,
  ),
  result: Type.Object({ device: PushDevice }),
  errors: ['push_device_not_found'],
});

export const PUSH_LIST = defineMethod({
  name: 'push.list',
  summary: 'The devices the daemon pushes to.',
  params: Type.Object({}, STRICT),
  result: Type.Object({ devices: Type.Array(PushDevice) }),
  errors: [],
});

export const PUSH_REMOVE = defineMethod({
  name: 'push.remove',
  summary: 'Stop pushing to a device.',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, STRICT),
  result: Type.Object({ removed: Type.Boolean() }),
  errors: [],
});

export const PUSH_TEST = defineMethod({
  name: 'push.test',
  summary: 'Push a test notification to one device (or every one) now, and reply with each push service status.',
  params: Type.Object({ id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, STRICT),
  result: Type.Object({ results: Type.Array(Type.Object({ id: Type.String(), status: Nullable(Type.Number()), error: Nullable(Type.String()) })) }),
  errors: ['push_device_not_found'],
});

/** Why an answer token typed nothing, as `POST /push/answer` names it (besides `answered`). */
export const PUSH_ANSWER_REFUSALS = ['prompt_changed', 'expired', 'used', 'invalid'] as const;

/** A notification button's or an answer link's token, the choice it is for, and the pane it names. */
const AnswerTokenParams = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 128 }),
    choice: Type.String({ minLength: 1, maxLength: 64 }),
    pane: Type.Optional(paneTarget),
  },
  STRICT,
);

export const PUSH_ANSWER = defineMethod({
  name: 'push.answer',
  summary: "Answer a prompt with a notification button's token: typed once, only while the pane's prompt is the one the token was minted for.",
  params: AnswerTokenParams,
  result: Type.Object({
    outcome: Type.Literal('answered'),
    pane: Type.String(),
    promptId: Type.String(),
    choice: Type.String(),
  }),
  errors: ['answer_token_refused'],
});

export const PUSH_PEEK = defineMethod({
  name: 'push.peek',
  summary: "What an answer token would answer, without spending it: the confirmation page of a webhook's answer link shows it.",
  params: AnswerTokenParams,
  result: Type.Object({
    pane: Type.String(),
    promptId: Type.String(),
    choice: Type.String(),
    label: Type.String({ description: "The choice's label, as the prompt offers it." }),
    agent: Nullable(Type.String()),
    paneName: Nullable(Type.String()),
    host: Type.String(),
    question: Type.String({ description: "The prompt's whole text, with its command." }),
  }),
  errors: ['answer_token_refused'],
});
