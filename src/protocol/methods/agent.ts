import { defineMethod, returns } from '../method.ts';
import { params } from '../validate.ts';
import type { AgentState, RawState } from '../states.ts';
import type { PaneLifecycle } from './pane.ts';
import { paneTarget } from '../pane-target.ts';
import type { ArbiterExplain, DetectionExplain } from '../explain.ts';
import type { AgentPrompt } from '../prompt.ts';

/** OSC 9;4 progress as last emitted by the pane's program. */
export interface AgentProgress {
  state: 0 | 1 | 2 | 3 | 4;
  percent: number | null;
}

/** One pane's agent as clients see it. Times are ms since the epoch. */
export interface AgentInfo {
  id: string; // the pane id
  name: string | null;
  workspace: string;
  agent: string | null; // null when no agent is identified in the pane
  identity: 'process' | 'report' | 'none';
  state: AgentState; // `done` is idle while not seen
  rawState: RawState;
  seen: boolean;
  stateSince: number;
  revision: number;
  /** Which precedence entry decided (docs/arbitration.md): screen_rule, report, full_lifecycle, ... */
  rule: string;
  /** The evidence that decided: `screen:<rule id>`, `report:<source>`, `fallback:<reason>`, ... */
  source: string;
  title: string | null;
  progress: AgentProgress | null;
  queued: number; // prompts waiting in the pane's steering queue
  metadata: Record<string, unknown> | null; // display-only metadata reported for the pane
  paneState: PaneLifecycle;
  /** While blocked: what the agent asks, its choices, and the id an answer names (docs/protocol.md, "The prompt"). */
  prompt?: AgentPrompt;
}

const target = paneTarget;

export const AGENT_GET = defineMethod({
  name: 'agent.get',
  summary: "One pane's agent: identity, effective state, seen, revision and what decided.",
  params: params({ target }),
  result: returns<AgentInfo>(),
  errors: ['pane_not_found'],
});

export const AGENT_EXPLAIN = defineMethod({
  name: 'agent.explain',
  summary: 'Why the pane has its state: the detection explain of its screen plus the arbiter view.',
  params: params({ target }),
  result: returns<AgentExplainResult>(),
  errors: ['pane_not_found'],
});

/** The live explain: `detection` as `corral agent explain --file` prints it, `arbiter` as in docs/arbitration.md. */
export interface AgentExplainResult {
  pane: { id: string; name: string | null };
  agent: AgentInfo;
  process: { pgid: number; pid: number; exe: string | null; argv: string[]; agentHint?: string } | null;
  detection: DetectionExplain | null; // null when no manifest applies (no agent identified)
  arbiter: ArbiterExplain;
  /** While blocked: the prompt, as in `agent`, with the reader that read it in its `source`. */
  prompt: AgentPrompt | null;
}
