/** The terminal layer's public surface. */
export { spawnTerminalPane } from './pane.ts';
export { Screen, SCROLLBACK_LINES, type ScreenOptions, type ReadOptions } from './screen.ts';
export { encodeKeys } from './keys.ts';
export { TerminalError } from './errors.ts';
export { readForeground, ancestry, isDescendant, descendants, readProcessTable, type ProcStat } from './proc-identity.ts';
export { KILL_GRACE_MS } from './terminate-policy.ts';
export { OSC_PAYLOAD_LIMIT } from './osc-parse.ts';
export type * from './types.ts';
export type * from './snapshot.ts';
