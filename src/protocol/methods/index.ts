import { PANE_GET, PANE_KILL, PANE_LIST, PANE_READ, PANE_RESIZE, PANE_SEND, PANE_SPAWN } from './pane.ts';
import { SERVER_STATUS } from './server.ts';

export * from './pane.ts';
export * from './server.ts';

/** Every declared method, in documentation order. */
export const ALL_METHODS = [
  SERVER_STATUS,
  PANE_SPAWN,
  PANE_LIST,
  PANE_GET,
  PANE_KILL,
  PANE_RESIZE,
  PANE_SEND,
  PANE_READ,
] as const;
