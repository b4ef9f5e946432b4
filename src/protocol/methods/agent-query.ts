import { defineMethod, returns } from '../method.ts';
import { AGENT_STATES, type AgentState } from '../states.ts';
import { arrayOf, bool, int, object, oneOf, optional, params, str } from '../validate.ts';
import type { AgentInfo, AgentProgress } from './agent.ts';
import { paneTarget } from '../pane-target.ts';

const target = paneTarget;

/** Workspace rollup precedence: the first state present among a workspace's agents wins. */
export const ROLLUP_ORDER = ['blocked', 'working', 'done', 'idle', 'unknown'] as const satisfies readonly AgentState[];

/** A name pattern for `agent.list`: `*` any run of characters, `?` one character, all else literal. */
export const NAME_PATTERN_MAX = 128;

export const AGENT_LIST_FILTER = object({
  agent: optional(str({ min: 1, max: 64 })),
  state: optional(arrayOf(oneOf(AGENT_STATES), { max: AGENT_STATES.length })),
  workspace: optional(str({ min: 1, max: 64 })),
  name: optional(str({ min: 1, max: NAME_PATTERN_MAX })),
});

export interface WorkspaceRollup {
  workspace: string;
  /** The most pressing state among the workspace's listed agents (ROLLUP_ORDER). */
  state: AgentState;
  counts: Record<AgentState, number>;
}

export interface AgentListResult {
  /** The daemon-wide state_change_seq when the list was taken: pass it to `agent.wait` as `sinceSeq`. */
  seq: number;
  agents: AgentInfo[];
  workspaces: WorkspaceRollup[];
}

export const AGENT_LIST = defineMethod({
  name: 'agent.list',
  summary: 'Every pane with an identified agent (all panes with `all`), filtered, with a rollup per workspace.',
  params: params({ filter: optional(AGENT_LIST_FILTER), all: optional(bool()) }),
  result: returns<AgentListResult>(),
  errors: [],
});

export const AGENT_READ_SOURCES = ['screen', 'detection', 'scrollback'] as const;
export type AgentReadSource = (typeof AGENT_READ_SOURCES)[number];

export interface AgentReadResult {
  source: AgentReadSource;
  /** For `detection`: the snapshot lines detection evaluates, joined with "\n". */
  text: string;
  cols: number;
  rows: number;
  /** What detection sees of the program's OSC title and progress (null until it emitted one). */
  title: string | null;
  progress: AgentProgress | null;
  /** For `detection` only: the cursor detection sees (0-based, in the screen). */
  cursor?: { x: number; y: number };
}

export const AGENT_READ = defineMethod({
  name: 'agent.read',
  summary: "The pane's screen, scrollback, or exactly what detection reads; never marks the pane seen.",
  params: params({
    target,
    source: optional(oneOf(AGENT_READ_SOURCES)),
    lines: optional(int({ min: 1, max: 100_000 })),
    ansi: optional(bool()),
    /** Screen and detection: leave out the blank rows below the last row with text before `lines` counts. */
    trim: optional(bool()),
    /** Screen and detection: only the rows of this region, as manifests name regions (`above_prompt_box`: above the composer); plain text. */
    region: optional(str({ min: 1, max: 64 })),
  }),
  result: returns<AgentReadResult>(),
  errors: ['pane_not_found', 'invalid_params'],
});

export const AGENT_FOCUS = defineMethod({
  name: 'agent.focus',
  summary: 'Mark the pane seen (done becomes idle); the change is published like any other.',
  params: params({ target }),
  result: returns<AgentInfo>(),
  errors: ['pane_not_found'],
});

export const PANE_FOCUS = defineMethod({
  name: 'pane.focus',
  summary: 'Mark the pane seen (done becomes idle), as a person looking at it would.',
  params: params({ target }),
  result: returns<AgentInfo>(),
  errors: ['pane_not_found'],
});
