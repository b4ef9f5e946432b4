/**
 * The one table of error codes. `rpc` is the JSON-RPC numeric code sent in `error.code`; the key is
 * the stable snake_case code sent in `error.data.code`. Several stable codes may share one numeric code.
 */
export const ERRORS = {
  parse_error: { rpc: -32700, summary: 'the line is not valid JSON' },
  invalid_request: { rpc: -32600, summary: 'the JSON is not a JSON-RPC 2.0 request object' },
  frame_too_large: { rpc: -32600, summary: 'a line exceeded the frame limit; the connection is closed' },
  frame_timeout: { rpc: -32600, summary: 'a line stayed unfinished too long; the connection is closed' },
  too_many_connections: { rpc: -32000, summary: 'the daemon serves its maximum of connections; close one and retry' },
  reply_too_large: { rpc: -32603, summary: 'the reply would exceed the reply limit; ask for less' },
  pane_external: { rpc: 1007, summary: 'the pane is an agent started outside Corral, known from its hooks only: it has no terminal to write to or respawn' },
  not_in_pane: { rpc: 1008, summary: 'the reporting process is not one of the pane\'s own processes; report from inside the pane' },
  pane_input_full: { rpc: 1006, summary: 'the pane has not read the input already sent; wait and retry' },
  method_not_found: { rpc: -32601, summary: 'no such method' },
  invalid_params: { rpc: -32602, summary: 'a parameter is missing, unknown or of the wrong type' },
  invalid_key: { rpc: -32602, summary: 'a key name in pane.send is not known' },
  internal_error: { rpc: -32603, summary: 'an unexpected fault in the daemon; see its log' },
  shutting_down: { rpc: -32000, summary: 'the daemon is stopping and accepts no new work' },
  pane_not_found: { rpc: 1001, summary: 'no pane has that id or name' },
  pane_exited: { rpc: 1002, summary: 'the pane process has exited; only read, get and kill apply' },
  name_taken: { rpc: 1003, summary: 'another pane already has that name' },
  spawn_failed: { rpc: 1004, summary: 'the command could not be started' },
  pane_running: { rpc: 1005, summary: 'the pane still runs; only a lost or exited pane can be respawned' },
  timeout: { rpc: 1100, summary: 'the operation did not finish in time' },
  cancelled: { rpc: 1101, summary: 'the request was cancelled because its client went away (no client receives it; it names the end in logs)' },
  agent_not_found: { rpc: 1201, summary: 'the pane has no identified agent' },
  agent_blocked: { rpc: 1202, summary: 'the agent waits on a decision; answer it instead' },
  agent_gone: { rpc: 1203, summary: 'the agent exited or was released; the wait can no longer match' },
  no_agent: { rpc: 1205, summary: 'a wait names a running pane with no identified agent (or a group with none); allowUnknown waits for one' },
  agent_not_blocked: { rpc: 1204, summary: 'the agent is not waiting on a decision; send a prompt instead' },
  composer_not_empty: { rpc: 1210, summary: "the agent's input box holds text Corral did not type; nothing was typed: data.draft is that text; replace it or append to it (agent.prompt composer)" },
  prompt_changed: { rpc: 1206, summary: 'the prompt on the screen is not the one the answer names; nothing was typed: read the current prompt in error.data.prompt and answer it' },
  choice_not_offered: { rpc: 1208, summary: 'the answer names a choice (an id or an option number) the prompt does not offer; nothing was typed: pick one of error.data.choices' },
  budget_exceeded: { rpc: 1211, summary: 'a budget of the agent is spent (docs/usage.md); nothing was typed: data.budget names it; force the prompt, raise the budget or wait for its period to turn' },
  cursor_too_old: { rpc: 1301, summary: 'the event cursor is no longer retained; subscribe again without since' },
  slow_consumer: { rpc: 1302, summary: 'the subscriber fell too far behind and was dropped' },
  stream_changed: { rpc: 1303, summary: "the cursor is not of this daemon's event stream (another epoch, or outside its cursors): subscribe again without since" },
  config_invalid: { rpc: 1401, summary: 'config.toml is not valid; the daemon keeps the settings it had' },
  policy_invalid: { rpc: 1402, summary: 'a policy file is not valid (error.data names file and line); the daemon keeps the policy it had' },
  answer_token_refused: { rpc: 1501, summary: "a notification's answer token typed nothing: data.reason says why (prompt_changed, expired, used, invalid); open the agent's page to answer" },
  push_device_not_found: { rpc: 1502, summary: 'no push device has that id; `corral notify push list` names them' },
  push_limit: { rpc: 1503, summary: 'the daemon pushes to its maximum of devices; remove one first' },
  webhook_not_configured: { rpc: 1504, summary: 'no `[notify.webhook] url` was set in config.toml when the daemon started; set one and start the daemon again' },
  webhook_failed: { rpc: 1505, summary: 'the webhook receiver did not take the test delivery: the message says what it answered (data.status) or why none came' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/** What travels in `error.data`: always the stable code, plus optional details. */
export interface ErrorData {
  code: ErrorCode;
  [detail: string]: unknown;
}

/** An error that crosses the wire: thrown by handlers, rebuilt by the client. */
export class CorralError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'CorralError';
    this.code = code;
    this.details = details;
  }

  get rpcCode(): number {
    return ERRORS[this.code].rpc;
  }

  toJSONRPC(): { code: number; message: string; data: ErrorData } {
    return { code: this.rpcCode, message: this.message, data: { ...this.details, code: this.code } };
  }
}
