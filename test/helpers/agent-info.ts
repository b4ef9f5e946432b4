import type { AgentInfo } from '../../src/protocol/methods/agent.ts';
import type { AgentState } from '../../src/protocol/states.ts';

/** An agent as `agent.get` gives it, read from the screen, for tests of what is made of agents; `extra` overrides. */
export function agentInfo(id: string, state: AgentState, extra: Partial<AgentInfo> = {}): AgentInfo {
  return {
    id,
    name: null,
    workspace: 'w1',
    agent: 'claude',
    identity: 'process',
    state,
    rawState: state === 'done' ? 'idle' : state,
    seen: state !== 'done',
    stateSince: 0,
    revision: 1,
    rule: 'screen_rule',
    source: 'screen:x',
    title: null,
    progress: null,
    queued: 0,
    metadata: null,
    paneState: 'running',
    ...extra,
  };
}
