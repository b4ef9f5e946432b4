import { DEFAULT_RECONNECT_GRACE_MS, endpointOf, waitCarryingOn, type DaemonAddress } from '../client/index.ts';
import { CorralError } from '../protocol/errors.ts';
import { type AgentWaitResult } from '../protocol/methods/agent-wait.ts';
import type { AgentState } from '../protocol/states.ts';
import { AGENT_GET } from '../protocol/methods/agent.ts';
import type { AgentPrompt } from '../protocol/prompt.ts';

/** A model that names no timeout waits this long; a client tool timeout (often 60 s) must not cut it first. */
export const DEFAULT_WAIT_SECONDS = 50;
/** The longest one tool call may wait; the model calls again to wait longer. */
export const MAX_WAIT_SECONDS = 600;

export interface WaitArgs {
  targets?: string[];
  allAgents?: boolean;
  allowUnknown?: boolean;
  read?: boolean;
  until?: AgentState[];
  mode?: 'any' | 'all';
  sinceSeq?: number;
  timeoutSeconds?: number;
}

/** The prompt of each target the wait left blocked, read right after it ended: what to answer. */
type Prompts = { prompts?: Record<string, AgentPrompt> };

export type WaitOutcome =
  | ({ outcome: 'matched' } & AgentWaitResult & Prompts)
  | ({ outcome: 'timed_out' | 'gone' } & AgentWaitResult & { gone?: string[] } & Prompts);

/**
 * One long-poll wait, on a connection of its own: the daemon's `agent.wait` judges the current state
 * and registers for changes in one step (so no transition between reading and waiting is missed), and
 * closing the connection cancels it there, which is how an MCP cancellation reaches the daemon.
 */
export async function waitForAgents(socket: DaemonAddress, args: WaitArgs, signal: AbortSignal, reconnectGraceMs = DEFAULT_RECONNECT_GRACE_MS): Promise<WaitOutcome> {
  const seconds = Math.min(args.timeoutSeconds ?? DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS);
  try {
    if (signal.aborted) throw new CorralError('timeout', 'the wait was cancelled');
    // A daemon restart in the middle of the wait is carried over: same deadline, same sinceSeq.
    const result = await waitCarryingOn(
      socket,
      {
        ...(args.targets ? { targets: args.targets } : {}),
        ...(args.allAgents ? { allAgents: true } : {}),
        ...(args.allowUnknown ? { allowUnknown: true } : {}),
        ...(args.read ? { read: true } : {}),
        ...(args.until ? { until: args.until } : {}),
        ...(args.mode ? { mode: args.mode } : {}),
        ...(args.sinceSeq !== undefined ? { sinceSeq: args.sinceSeq } : {}),
        timeoutMs: Math.round(seconds * 1000),
      },
      { graceMs: reconnectGraceMs, signal },
    );
    return { outcome: 'matched', ...result, ...(await promptsOf(socket, result.states)) };
  } catch (error) {
    if (error instanceof CorralError && (error.code === 'timeout' || error.code === 'agent_gone') && !signal.aborted) {
      const details = error.details as unknown as AgentWaitResult & { gone?: string[] };
      return { outcome: error.code === 'timeout' ? 'timed_out' : 'gone', ...details, ...(await promptsOf(socket, details.states ?? {})) };
    }
    throw error;
  }
}

/** The prompts of the blocked targets; a target gone in between is left out. */
async function promptsOf(socket: DaemonAddress, states: AgentWaitResult['states']): Promise<Prompts> {
  const blocked = Object.entries(states).filter(([, state]) => state === 'blocked');
  if (blocked.length === 0) return {};
  const prompts: Record<string, AgentPrompt> = {};
  const connection = await endpointOf(socket).dial();
  try {
    for (const [name] of blocked) {
      try {
        const info = await connection.call(AGENT_GET, { target: name });
        if (info.prompt) prompts[name] = info.prompt;
      } catch (error) {
        if (!(error instanceof CorralError)) throw error;
      }
    }
  } finally {
    connection.dispose();
  }
  return Object.keys(prompts).length > 0 ? { prompts } : {};
}
