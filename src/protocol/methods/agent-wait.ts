import { defineMethod } from '../method.ts';
import { AGENT_STATES, type AgentState } from '../states.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';

/** A wait names at most this many targets. */
export const MAX_WAIT_TARGETS = 64;
/** The longest timeout a timer can hold (about 24.8 days); no timeout at all is also allowed. */
export const MAX_WAIT_MS = 2_147_483_647;
/** What a wait with no `until` waits for: the agent stopped, finished or needs a person. */
export const DEFAULT_WAIT_UNTIL = ['idle', 'done', 'blocked'] as const satisfies readonly AgentState[];
export const WAIT_MODES = ['any', 'all'] as const;
export type WaitMode = (typeof WAIT_MODES)[number];

/**
 * How a wait ends; on `timeout` and `agent_gone` the same fields travel in `error.data`
 * (with `gone` listing the targets that can no longer match).
 */
export const AgentWaitResult = Type.Object({
  matched: Type.Array(Type.String(), { description: 'The targets (as the caller named them) matching at the moment the wait ended.' }),
  states: Type.Record(Type.String(), Literals([...AGENT_STATES, 'gone']), {
    description: "Each target's displayed state at that moment; `gone` when its pane or agent is no longer there.",
  }),
  seq: Type.Number({ description: 'The daemon-wide state_change_seq at that moment.' }),
  elapsedMs: Type.Number(),
  screens: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'With `read`: the screen of each matched target when the wait ended.' })),
});
export type AgentWaitResult = Static<typeof AgentWaitResult>;

export const AGENT_WAIT = defineMethod({
  name: 'agent.wait',
  summary: 'Wait until any or all targets are in one of the states (level-triggered), or time out.',
  params: Type.Object(
    {
      targets: Type.Optional(
        Type.Array(paneTarget, { minItems: 1, maxItems: MAX_WAIT_TARGETS, errorMessage: 'must name at least one pane, or be left out with allAgents' }),
      ),
      allAgents: Type.Optional(Type.Boolean()),
      allowUnknown: Type.Optional(Type.Boolean()),
      read: Type.Optional(Type.Boolean()),
      until: Type.Optional(
        Type.Array(Literals(AGENT_STATES), { minItems: 1, maxItems: AGENT_STATES.length, errorMessage: 'must name at least one state, or be left out' }),
      ),
      mode: Type.Optional(Literals(WAIT_MODES)),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_WAIT_MS })),
      sinceSeq: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
      stableMs: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_WAIT_MS })),
    },
    STRICT,
  ),
  result: AgentWaitResult,
  errors: ['pane_not_found', 'no_agent', 'agent_gone', 'timeout', 'cancelled'],
});
