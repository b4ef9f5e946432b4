import { defineMethod } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, STRICT } from '../schema.ts';
import { AgentPrompt } from '../prompt.ts';
import { AGENT_STATES } from '../states.ts';
import { paneTarget } from '../pane-target.ts';

const target = paneTarget;

/** What to do with a draft already in the agent's input box: empty it first, or type after it. */
export const COMPOSER_MODES = ['replace', 'append'] as const;
export type ComposerMode = (typeof COMPOSER_MODES)[number];

/** What `agent.prompt` did: typed it now (`seq` is the state_change_seq just before, for `agent.wait sinceSeq`), or queued it. */
export const PromptResult = Type.Union([
  Type.Object({ delivered: Type.Literal(true), seq: Type.Number() }),
  Type.Object({ queued: Type.Literal(true), position: Type.Number() }),
]);
export type PromptResult = Static<typeof PromptResult>;

export const AGENT_PROMPT = defineMethod({
  name: 'agent.prompt',
  summary: 'Type a prompt into an idle agent and submit it; a working agent gets it queued until it is next idle, unless queue: false types it at once.',
  params: Type.Object({
    target,
    text: Type.String({ maxLength: 1 << 20 }),
    submit: Type.Optional(Type.Boolean()),
    queue: Type.Optional(Type.Boolean({ description: 'Default true: a working agent gets the prompt queued (the steering queue); false types it into the working agent at once.' })),
    composer: Type.Optional(Literals(COMPOSER_MODES, { description: "What to do with a draft in the agent's input box: without it, a draft refuses the prompt (composer_not_empty)." })),
    force: Type.Optional(Type.Boolean({ description: 'Type it although a budget of the agent is spent (budget_exceeded); it is typed now, never queued behind the hold.' })),
  }, STRICT),
  result: PromptResult,
  errors: ['pane_not_found', 'pane_exited', 'pane_external', 'agent_not_found', 'agent_blocked', 'composer_not_empty', 'pane_input_full', 'budget_exceeded'],
});

/** One prompt waiting in a pane's steering queue. */
export const QueuedPrompt = Type.Object(
  {
    text: Type.String(),
    submit: Type.Boolean(),
    queuedAt: Type.Number({ description: 'ms since the epoch' }),
    composer: Type.Optional(Literals(COMPOSER_MODES, { description: "What it does with a draft in the input box when it is typed; without it, it waits while one is there." })),
  },
  { $id: 'QueuedPrompt', description: "One prompt waiting in a pane's steering queue." },
);
export type QueuedPrompt = Static<typeof QueuedPrompt>;

export const AGENT_QUEUE = defineMethod({
  name: 'agent.queue',
  summary: "The prompts waiting in the pane's steering queue, first to be delivered first.",
  params: Type.Object({ target }, STRICT),
  result: Type.Object({ queued: Type.Number(), prompts: Type.Array(QueuedPrompt) }),
  errors: ['pane_not_found'],
});

export const AGENT_CLEAR_QUEUE = defineMethod({
  name: 'agent.clearQueue',
  summary: "Empty the pane's steering queue; nothing waiting in it is delivered.",
  params: Type.Object({ target }, STRICT),
  result: Type.Object({ cleared: Type.Number() }),
  errors: ['pane_not_found'],
});

export const DEFAULT_ANSWER_TIMEOUT_MS = 10_000;

const optionNumber = Type.Integer({ minimum: 0, maximum: 99 });
const choiceId = Type.String({ minLength: 1, maxLength: 64 });
/** A choice: its id in the prompt (`yes`), or, as before prompts were read, an option number typed as digits. */
const choiceParam = Type.Union([choiceId, optionNumber]);

/**
 * How long the reply to `agent.answer` waits, once the dialog it answered has left the screen, for the
 * agent to leave blocked or show its next dialog, before it says `pending`: longer than the debounce
 * that holds blocked while the screen confirms (450 ms, docs/arbitration.md).
 */
export const ANSWER_SETTLE_MS = 2_000;

export const ANSWER_OUTCOMES = ['left', 'next', 'pending'] as const;
export type AnswerOutcome = (typeof ANSWER_OUTCOMES)[number];

/** What `agent.answer` did, once the dialog it answered had gone (docs/protocol.md, `agent.answer`). */
export const AnswerResult = Type.Object({
  outcome: Literals(ANSWER_OUTCOMES, {
    description:
      '`left`: the agent is out of blocked (`state`: working, idle, done, exited...). `next`: it is blocked on another dialog the screen shows (`prompt`, a new id; never the one answered). ' +
      '`pending`: the answered dialog is gone, but the agent neither left blocked nor shows another dialog a reader knows within the settle time (a report holds blocked): read it again.',
  }),
  state: Literals(AGENT_STATES),
  elapsedMs: Type.Number(),
  prompt: Type.Optional(AgentPrompt), // with outcome `next` only: the dialog now on the screen
  repeated: Type.Optional(
    Type.Literal(true, { description: 'This request repeated one already typed (same promptId and answer): nothing was typed again.' }),
  ),
});
export type AnswerResult = Static<typeof AnswerResult>;

export const AGENT_ANSWER = defineMethod({
  name: 'agent.answer',
  summary: "Answer a blocked agent's prompt (promptId) with a choice id, keys or text; typed once, replies once the dialog answered is gone: left blocked, its next prompt, or pending.",
  params: Type.Object({
    target,
    choice: Type.Optional(choiceParam),
    keys: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { maxItems: 64 })),
    text: Type.Optional(Type.String({ maxLength: 1 << 16 })),
    promptId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_600_000 })),
  }, STRICT),
  result: AnswerResult,
  errors: ['pane_not_found', 'pane_exited', 'pane_external', 'agent_not_found', 'agent_not_blocked', 'prompt_changed', 'choice_not_offered', 'invalid_params', 'invalid_key', 'timeout', 'cancelled'],
});
