/** Raw agent states, as decided by the arbiter from all evidence. */
export const RAW_STATES = ['idle', 'working', 'blocked', 'unknown'] as const;
export type RawState = (typeof RAW_STATES)[number];

/** What clients see: `done` is idle while the pane has not been seen since it finished. */
export const AGENT_STATES = ['idle', 'working', 'blocked', 'done', 'unknown'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/**
 * The one meaning of "needs you", the same number in every view (top, web, `host list`, `agent list
 * --fleet`): a blocked agent needs the person for as long as it is blocked, looked at or not; a done
 * agent until it is seen (`done` is idle while unseen: focused, attached, prompted or its web page
 * opened make it idle). The attention inbox keeps items for notifications; the count follows the states.
 */
export function needsYou(state: AgentState): boolean {
  return state === 'blocked' || state === 'done';
}

export function isRawState(value: unknown): value is RawState {
  return typeof value === 'string' && (RAW_STATES as readonly string[]).includes(value);
}
