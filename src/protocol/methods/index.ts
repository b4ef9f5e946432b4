import { PANE_GET, PANE_KILL, PANE_LIST, PANE_READ, PANE_RESIZE, PANE_RESPAWN, PANE_SEND, PANE_SPAWN } from './pane.ts';
import { SERVER_RELOAD_CONFIG, SERVER_STATUS, SERVER_STOP } from './server.ts';
import { AGENT_EXPLAIN, AGENT_GET } from './agent.ts';
import { AGENT_FOCUS, AGENT_LIST, AGENT_READ, PANE_FOCUS } from './agent-query.ts';
import { AGENT_WAIT } from './agent-wait.ts';
import { SERVER_MANIFESTS, SERVER_RELOAD_MANIFESTS } from './manifests.ts';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION } from './report.ts';
import { AGENT_ANSWER, AGENT_PROMPT, AGENT_QUEUE, AGENT_CLEAR_QUEUE } from './agent-act.ts';
import { PANE_REPORT_METADATA } from './metadata.ts';
import { EVENTS_CURSOR, EVENTS_DROPPED, EVENTS_READ, EVENTS_SUBSCRIBE, EVENTS_UNSUBSCRIBE } from './events.ts';
import { EVENT, SERVER_PROBE } from '../notifications.ts';
import { PANE_ATTACH, PANE_DETACH, PANE_DETACHED, PANE_OUTPUT } from './attach.ts';
import { RPC_DISCOVER } from './discover.ts';
import { PANE_RECORD, PANE_RECORD_ENDED, PANE_RECORDED } from './record.ts';
import { INBOX_ACK, INBOX_LIST } from './inbox.ts';
import { POLICY_CHECK, POLICY_LOG, POLICY_PAUSE, POLICY_RESUME, POLICY_STATUS } from './policy.ts';
import { PUSH_ANSWER, PUSH_KEY, PUSH_LIST, PUSH_PEEK, PUSH_REMOVE, PUSH_SET, PUSH_SUBSCRIBE, PUSH_TEST } from './push.ts';
import { POLICY_HOOK_REQUEST } from './policy-hook.ts';
import { USAGE_REPORT } from './usage.ts';
import { WEBHOOK_TEST } from './webhook.ts';

export * from './pane.ts';
export * from './server.ts';
export * from './agent.ts';
export * from './agent-query.ts';
export * from './agent-wait.ts';
export * from './manifests.ts';
export * from './report.ts';
export * from './agent-act.ts';
export * from './metadata.ts';
export * from './events.ts';
export * from './attach.ts';
export * from './discover.ts';
export * from './record.ts';
export * from './inbox.ts';
export * from './policy.ts';
export * from './policy-hook.ts';
export * from './push.ts';
export * from './usage.ts';
export * from './webhook.ts';

/** Every declared method, in documentation order. */
export const ALL_METHODS = [
  RPC_DISCOVER,
  SERVER_STATUS,
  SERVER_STOP,
  PANE_SPAWN,
  PANE_LIST,
  PANE_GET,
  PANE_KILL,
  PANE_RESPAWN,
  PANE_RESIZE,
  PANE_SEND,
  PANE_READ,
  PANE_FOCUS,
  PANE_ATTACH,
  PANE_DETACH,
  PANE_RECORD,
  PANE_REPORT_AGENT,
  PANE_RELEASE_AGENT,
  PANE_REPORT_SESSION,
  AGENT_GET,
  AGENT_LIST,
  AGENT_EXPLAIN,
  AGENT_READ,
  AGENT_FOCUS,
  AGENT_WAIT,
  AGENT_PROMPT,
  AGENT_ANSWER,
  AGENT_QUEUE,
  AGENT_CLEAR_QUEUE,
  PANE_REPORT_METADATA,
  SERVER_MANIFESTS,
  SERVER_RELOAD_MANIFESTS,
  SERVER_RELOAD_CONFIG,
  EVENTS_SUBSCRIBE,
  EVENTS_UNSUBSCRIBE,
  EVENTS_READ,
  EVENTS_CURSOR,
  INBOX_LIST,
  INBOX_ACK,
  POLICY_STATUS,
  POLICY_CHECK,
  POLICY_LOG,
  POLICY_PAUSE,
  POLICY_RESUME,
  POLICY_HOOK_REQUEST,
  PUSH_KEY,
  PUSH_SUBSCRIBE,
  PUSH_LIST,
  PUSH_REMOVE,
  PUSH_SET,
  PUSH_TEST,
  PUSH_ANSWER,
  PUSH_PEEK,
  USAGE_REPORT,
  WEBHOOK_TEST,
] as const;

/** Every declared server-to-client notification. */
export const ALL_NOTIFICATIONS = [EVENT, EVENTS_DROPPED, PANE_OUTPUT, PANE_DETACHED, PANE_RECORDED, PANE_RECORD_ENDED, SERVER_PROBE] as const;

/** Method declarations by their name, for clients typed by method name. */
export type MethodMap = { [M in (typeof ALL_METHODS)[number] as M['name']]: M };
export type MethodName = keyof MethodMap;
