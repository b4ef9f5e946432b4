import { PANE_GET, PANE_KILL, PANE_LIST, PANE_READ, PANE_RESIZE, PANE_SEND, PANE_SPAWN } from './pane.ts';
import { SERVER_STATUS } from './server.ts';
import { AGENT_EXPLAIN, AGENT_GET } from './agent.ts';
import { SERVER_MANIFESTS, SERVER_RELOAD_MANIFESTS } from './manifests.ts';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION } from './report.ts';

export * from './pane.ts';
export * from './server.ts';
export * from './agent.ts';
export * from './manifests.ts';
export * from './report.ts';

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
  PANE_REPORT_AGENT,
  PANE_RELEASE_AGENT,
  PANE_REPORT_SESSION,
  AGENT_GET,
  AGENT_EXPLAIN,
  SERVER_MANIFESTS,
  SERVER_RELOAD_MANIFESTS,
] as const;
