import { defineMethod } from '../method.ts';
import { AGENT_STATES, type AgentState } from '../states.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { AgentInfo, AgentProgress } from './agent.ts';
import { paneTarget } from '../pane-target.ts';

const target = paneTarget;

/** Workspace rollup precedence: the first state present among a workspace's agents wins. */
export const ROLLUP_ORDER = ['blocked', 'working', 'done', 'idle', 'unknown'] as const satisfies readonly AgentState[];

/** A name pattern for `agent.list`: `*` any run of characters, `?` one character, all else literal. */
export const NAME_PATTERN_MAX = 128;

export const AGENT_LIST_FILTER = Type.Object({
  agent: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  state: Type.Optional(Type.Array(Literals(AGENT_STATES), { maxItems: AGENT_STATES.length })),
  workspace: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_PATTERN_MAX })),
}, STRICT);

const agentState = Literals(AGENT_STATES);

export const WorkspaceRollup = Type.Object(
  {
    workspace: Type.String(),
    state: Literals(AGENT_STATES, { description: "The most pressing state among the workspace's listed agents (ROLLUP_ORDER)." }),
    counts: Type.Record(agentState, Type.Number()),
  },
  { $id: 'WorkspaceRollup' },
);
export type WorkspaceRollup = Static<typeof WorkspaceRollup>;

export const AgentListResult = Type.Object({
  seq: Type.Number({ description: 'The daemon-wide state_change_seq when the list was taken: pass it to `agent.wait` as `sinceSeq`.' }),
  agents: Type.Array(AgentInfo),
  workspaces: Type.Array(WorkspaceRollup),
});
export type AgentListResult = Static<typeof AgentListResult>;

export const AGENT_LIST = defineMethod({
  name: 'agent.list',
  summary: 'Every pane with an identified agent (all panes with `all`), filtered, with a rollup per workspace.',
  params: Type.Object({ filter: Type.Optional(AGENT_LIST_FILTER), all: Type.Optional(Type.Boolean()) }, STRICT),
  result: AgentListResult,
  errors: [],
});

export const AGENT_READ_SOURCES = ['screen', 'detection', 'scrollback'] as const;
export type AgentReadSource = (typeof AGENT_READ_SOURCES)[number];

export const AgentReadResult = Type.Object({
  source: Literals(AGENT_READ_SOURCES),
  text: Type.String({ description: 'For `detection`: the snapshot lines detection evaluates, joined with "\\n".' }),
  cols: Type.Number(),
  rows: Type.Number(),
  title: Nullable(Type.String(), { description: "What detection sees of the program's OSC title and progress (null until it emitted one)." }),
  progress: Nullable(AgentProgress),
  cursor: Type.Optional(Type.Object({ x: Type.Number(), y: Type.Number() }, { description: 'For `detection` only: the cursor detection sees (0-based, in the screen).' })),
});
export type AgentReadResult = Static<typeof AgentReadResult>;

export const AGENT_READ = defineMethod({
  name: 'agent.read',
  summary: "The pane's screen, scrollback, or exactly what detection reads; never marks the pane seen.",
  params: Type.Object({
    target,
    source: Type.Optional(Literals(AGENT_READ_SOURCES)),
    lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    ansi: Type.Optional(Type.Boolean()),
    /** Screen and detection: leave out the blank rows below the last row with text before `lines` counts. */
    trim: Type.Optional(Type.Boolean()),
    /** Screen and detection: only the rows of this region, as manifests name regions (`above_prompt_box`: above the composer); plain text. */
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  }, STRICT),
  result: AgentReadResult,
  errors: ['pane_not_found', 'invalid_params'],
});

export const AGENT_FOCUS = defineMethod({
  name: 'agent.focus',
  summary: 'Mark the pane seen (done becomes idle); the change is published like any other.',
  params: Type.Object({ target }, STRICT),
  result: AgentInfo,
  errors: ['pane_not_found'],
});

export const PANE_FOCUS = defineMethod({
  name: 'pane.focus',
  summary: 'Mark the pane seen (done becomes idle), as a person looking at it would.',
  params: Type.Object({ target }, STRICT),
  result: AgentInfo,
  errors: ['pane_not_found'],
});
