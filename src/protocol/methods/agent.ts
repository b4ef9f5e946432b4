import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../method.ts';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { AGENT_STATES, RAW_STATES } from '../states.ts';
import { PANE_LIFECYCLES, PaneProcess } from './pane.ts';
import { paneTarget } from '../pane-target.ts';
import { ArbiterExplain, DetectionExplain } from '../explain.ts';
import { AgentPrompt } from '../prompt.ts';
import { AgentUsageField } from '../usage.ts';

/** OSC 9;4 progress as last emitted by the pane's program. */
export const AgentProgress = Type.Object(
  { state: Type.Union([0, 1, 2, 3, 4].map((value) => Type.Literal(value as 0 | 1 | 2 | 3 | 4))), percent: Nullable(Type.Number()) },
  { $id: 'AgentProgress', description: "OSC 9;4 progress as last emitted by the pane's program." },
);
export type AgentProgress = Static<typeof AgentProgress>;

/** One pane's agent as clients see it. Times are ms since the epoch. */
export const AgentInfo = Type.Object(
  {
    id: Type.String(), // the pane id
    name: Nullable(Type.String()),
    workspace: Type.String(),
    agent: Nullable(Type.String()), // null when no agent is identified in the pane
    identity: Literals(['process', 'report', 'none']),
    state: Literals(AGENT_STATES), // `done` is idle while not seen
    rawState: Literals(RAW_STATES),
    seen: Type.Boolean(),
    stateSince: Type.Number(),
    revision: Type.Number(),
    rule: Type.String({ description: 'Which precedence entry decided (docs/arbitration.md): screen_rule, report, full_lifecycle, ...' }),
    source: Type.String({ description: 'The evidence that decided: `screen:<rule id>`, `report:<source>`, `fallback:<reason>`, ...' }),
    title: Nullable(Type.String()),
    progress: Nullable(AgentProgress),
    queued: Type.Number(), // prompts waiting in the pane's steering queue
    metadata: Nullable(Type.Record(Type.String(), Type.Unknown())), // display-only metadata reported for the pane
    paneState: Literals(PANE_LIFECYCLES),
    // What the agent spent, from its own record (docs/usage.md); `unknown` while Corral knows no record of it; absent when no agent is identified.
    usage: Type.Optional(AgentUsageField),
    prompt: Type.Optional(AgentPrompt),
    composer: Type.Optional(
      Type.String({
        description:
          "agent.get only: the text waiting in the agent's input box ('' when empty), where its manifest reads the box and the box is on screen; `agent.prompt` refuses to type after it (composer_not_empty) unless asked to replace or append",
      }),
    ),
  },
  { $id: 'AgentInfo', description: "One pane's agent as clients see it. Times are ms since the epoch." },
);
export type AgentInfo = Static<typeof AgentInfo>;

const target = paneTarget;

export const AGENT_GET = defineMethod({
  name: 'agent.get',
  summary: "One pane's agent: identity, effective state, seen, revision and what decided.",
  params: Type.Object({ target }, STRICT),
  result: AgentInfo,
  errors: ['pane_not_found'],
});

/** The live explain: `detection` as `corral agent explain --file` prints it, `arbiter` as in docs/arbitration.md. */
export const AgentExplainResult = Type.Object({
  pane: Type.Object({ id: Type.String(), name: Nullable(Type.String()) }),
  agent: AgentInfo,
  process: Nullable(PaneProcess),
  detection: Nullable(DetectionExplain), // null when no manifest applies (no agent identified)
  arbiter: ArbiterExplain,
  prompt: Nullable(AgentPrompt, { description: 'While blocked: the prompt, as in `agent`, with the reader that read it in its `source`.' }),
});
export type AgentExplainResult = Static<typeof AgentExplainResult>;

export const AGENT_EXPLAIN = defineMethod({
  name: 'agent.explain',
  summary: 'Why the pane has its state: the detection explain of its screen plus the arbiter view.',
  params: Type.Object({ target }, STRICT),
  result: AgentExplainResult,
  errors: ['pane_not_found'],
});
