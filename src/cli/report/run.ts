import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGroupTarget } from '../../protocol/pane-target.ts';
import { resolveSocketPath } from '../../protocol/socket-path.ts';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION } from '../../protocol/methods/report.ts';
import type { HookAction, Payload } from './action.ts';
import { parseReportArgs, type ReportArgs } from './args.ts';
import { HOOK_MAPPINGS } from './mappings.ts';
import { askPolicy, permissionOutput, POLICY_WAIT_MS } from './permission.ts';
import { sendOnce } from './send.ts';
import { readStdin } from './stdin.ts';
import { recordOf } from './record.ts';

/** The whole budget of one hook call: read, connect, write, answer (docs/reporting.md, "`corral report`: the hook command"). */
export const HOOK_DEADLINE_MS = 300;
/** How long the hook waits for its payload on stdin (an agent writes it after starting the hook). */
export const PAYLOAD_WAIT_MS = 2000;

/** Exit codes under --strict; without it a hook always exits 0. */
const STRICT_EXIT = { ok: 0, rejected: 1, usage: 2, unreachable: 4, timeout: 124 } as const;

/**
 * `corral report`: what an agent's hook runs. It prints nothing on stdout but a permission hook's
 * decision, never waits longer than HOOK_DEADLINE_MS (POLICY_WAIT_MS for that decision), and exits 0
 * whatever happens unless --strict.
 */
export async function runReport(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  // Hook processes start in the order their agent fires the events: the start time orders them.
  startedMicros = Math.round(performance.timeOrigin * 1000),
): Promise<number> {
  let deadline = Date.now() + deadlineMs(env);
  let args: ReportArgs;
  try {
    args = parseReportArgs(argv);
  } catch (error) {
    return fail(false, 'usage', (error as Error).message);
  }
  const strict = args.strict;
  const mapping = args.hook !== undefined ? HOOK_MAPPINGS[args.hook] : undefined;
  if (args.hook !== undefined && mapping === undefined) {
    return fail(strict, 'usage', `--hook ${args.hook}: no mapping; use one of ${Object.keys(HOOK_MAPPINGS).join(', ')}`);
  }

  let action: HookAction;
  let payload: Payload | null = null;
  if (mapping) {
    // The agent may write the payload late (its own event loop is busy as a turn starts): the wait for
    // it costs the agent nothing, so it has its own cap, and the budget for the report starts after it.
    const raw = mapping.payloadFrom === 'last-argument' ? (args.positional.at(-1) ?? '') : await readStdin(Date.now() + PAYLOAD_WAIT_MS);
    deadline = Date.now() + deadlineMs(env);
    if (args.chain) runChained(args.chain, raw);
    capture(env, args.hook!, raw, startedMicros);
    payload = parsePayload(raw);
    if (payload === null) return fail(strict, 'usage', `the ${args.hook} hook payload is not a JSON object`);
    action = mapping.map(payload);
    if (args.state !== undefined) action = { kind: 'state', state: args.state as 'idle', ...sessionPart(action) };
  } else {
    if (args.state === undefined) return fail(strict, 'usage', 'pass --state, or --hook to read the agent hook payload');
    action = { kind: 'state', state: args.state as 'idle' };
  }
  if (action.kind === 'ignore') return 0;

  const agent = args.agent ?? mapping?.agent;
  if (agent === undefined) return fail(strict, 'usage', 'pass --agent (or --hook)');
  // Outside a pane (an agent started in any terminal) the report names no target: the daemon lists the
  // agent as an external pane keyed by source and session, which it then needs.
  const target = args.target ?? (env.CORRAL_PANE || undefined);
  // A hook reports for the one pane it runs in; a group would need a lookup this fast path does not make.
  if (target !== undefined && isGroupTarget(target)) return fail(strict, 'usage', `--target takes one pane id or name, not the group "${target}"`);
  const source = args.source ?? `hook:${args.hook ?? agent}`;
  const session = args.session ?? action.session;
  if (target === undefined && session === undefined) return fail(strict, 'usage', 'no pane and no session: outside a Corral pane a report needs a session (--session)');
  // Inside a pane this process is below the agent that ran the hook: binding checks its pid.
  const pid = env.CORRAL_PANE && args.target === undefined ? { pid: process.pid } : {};
  const common = { ...(target !== undefined ? { target } : {}), source, ...(session !== undefined ? { session } : {}), ...pid };
  // The session's own record, whose usage the daemon reads (docs/usage.md); not with a release.
  const record = payload !== null && args.hook !== undefined ? recordOf(args.hook, payload, env) : undefined;
  const named = record !== undefined ? { record } : {};

  const socket = resolveSocketPath(args.socket, env);
  // A permission hook in a pane asks the policy first: an allow or deny goes to the agent on stdout, and
  // the agent takes its dialog down (or never draws it), so nothing is blocked to report.
  const request = payload !== null && target !== undefined && args.state === undefined ? (mapping?.permission?.(payload) ?? null) : null;
  if (request !== null) {
    // CORRAL_HOOK_DEADLINE_MS stretches this wait too when it is longer (a loaded machine, a test).
    const answer = await askPolicy(socket, { ...request, target: target!, source, agent, ...pid }, Date.now() + Math.max(POLICY_WAIT_MS, deadlineMs(env)));
    if (answer !== null) {
      process.stdout.write(permissionOutput(answer));
      return 0;
    }
    deadline = Date.now() + deadlineMs(env);
  }
  let outcome;
  if (action.kind === 'state') {
    // The agent's own numbering first (OpenCode's plugin counts its events), then the payload's time, then the start.
    const seq = args.seq ?? (action.ts !== undefined ? action.ts * 1000 : startedMicros);
    const message = args.message ?? action.message;
    const params = { ...common, agent, state: action.state, seq, ts: Math.floor(Date.now() / 1000), ...(message ? { message } : {}), ...named };
    outcome = await sendOnce(socket, PANE_REPORT_AGENT.name, params, deadline);
  } else if (action.kind === 'session') {
    outcome = await sendOnce(socket, PANE_REPORT_SESSION.name, { ...common, agent, ...named }, deadline);
  } else {
    outcome = await sendOnce(socket, PANE_RELEASE_AGENT.name, common, deadline);
  }
  if (!outcome.ok) return fail(strict, outcome.code === 'timeout' ? 'timeout' : 'unreachable', outcome.message);
  if (!outcome.result.accepted) return fail(strict, 'rejected', `report not accepted: ${outcome.result.reason ?? 'unknown reason'}`);
  return 0;
}

/** CORRAL_HOOK_DEADLINE_MS stretches the budget (a loaded machine, a test that asserts delivery). */
function deadlineMs(env: NodeJS.ProcessEnv): number {
  const asked = Number(env.CORRAL_HOOK_DEADLINE_MS);
  return Number.isInteger(asked) && asked > 0 && asked <= 60_000 ? asked : HOOK_DEADLINE_MS;
}

function fail(strict: boolean, kind: keyof typeof STRICT_EXIT, message: string): number {
  if (!strict) return 0;
  process.stderr.write(`corral report: ${message}\n`);
  return STRICT_EXIT[kind];
}

function sessionPart(action: HookAction): { session?: string } {
  return action.kind !== 'ignore' && action.session !== undefined ? { session: action.session } : {};
}

function parsePayload(raw: string): Payload | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Payload) : null;
  } catch {
    return null;
  }
}

/** The user's own notify program keeps working: it gets the same payload, and nobody waits for it. */
function runChained(chain: string[], raw: string): void {
  try {
    spawn(chain[0]!, [...chain.slice(1), raw], { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
  } catch {
    // a chained program that cannot start is the user's to fix; the report goes on
  }
}

/**
 * CORRAL_HOOK_CAPTURE=<dir> keeps each payload as it came (the live check records fixtures this way),
 * named `<hook>-<ms now>-<pid>-<ms the process started>.json`: the live check measures from both.
 */
function capture(env: NodeJS.ProcessEnv, hook: string, raw: string, startedMicros: number): void {
  const dir = env.CORRAL_HOOK_CAPTURE;
  if (!dir) return;
  try {
    writeFileSync(join(dir, `${hook}-${Date.now()}-${process.pid}-${Math.round(startedMicros / 1000)}.json`), raw);
  } catch {
    // capturing is best effort
  }
}
