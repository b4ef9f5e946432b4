/** Raw agent states, as decided by the arbiter from all evidence. */
export const RAW_STATES = ['idle', 'working', 'blocked', 'unknown'] as const;
export type RawState = (typeof RAW_STATES)[number];

/** What clients see: `done` is idle while the pane has not been seen since it finished. */
export const AGENT_STATES = ['idle', 'working', 'blocked', 'done', 'unknown'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export function isRawState(value: unknown): value is RawState {
  return typeof value === 'string' && (RAW_STATES as readonly string[]).includes(value);
}
