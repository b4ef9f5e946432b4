import { DaemonClient } from '../client/index.ts';
import { CorralError } from '../protocol/errors.ts';
import { AGENT_WAIT, type AgentWaitResult } from '../protocol/methods/agent-wait.ts';
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
export async function waitForAgents(socket: string, args: WaitArgs, signal: AbortSignal): Promise<WaitOutcome> {
  const seconds = Math.min(args.timeoutSeconds ?? DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS);
  const connection = await DaemonClient.connect(socket);
  const cancel = () => connection.dispose();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    if (signal.aborted) throw new CorralError('timeout', 'the wait was cancelled');
    const result = await connection.call(AGENT_WAIT, {
      ...(args.targets ? { targets: args.targets } : {}),
      ...(args.allAgents ? { allAgents: true } : {}),
      ...(args.allowUnknown ? { allowUnknown: true } : {}),
      ...(args.read ? { read: true } : {}),
      ...(args.until ? { until: args.until } : {}),
      ...(args.mode ? { mode: args.mode } : {}),
      ...(args.sinceSeq !== undefined ? { sinceSeq: args.sinceSeq } : {}),
      timeoutMs: Math.round(seconds * 1000),
    });
    return { outcome: 'matched', ...result, ...(await promptsOf(connection, result.states)) };
  } catch (error) {
    if (error instanceof CorralError && (error.code === 'timeout' || error.code === 'agent_gone') && !signal.aborted) {
      const details = error.details as unknown as AgentWaitResult & { gone?: string[] };
      return { outcome: error.code === 'timeout' ? 'timed_out' : 'gone', ...details, ...(await promptsOf(connection, details.states ?? {})) };
    }
    throw error;
  } finally {
    signal.removeEventListener('abort', cancel);
    connection.dispose();
  }
}

/** The prompts of the blocked targets; a target gone in between is left out. */
async function promptsOf(connection: DaemonClient, states: AgentWaitResult['states']): Promise<Prompts> {
  const prompts: Record<string, AgentPrompt> = {};
  for (const [name, state] of Object.entries(states)) {
    if (state !== 'blocked') continue;
    try {
      const info = await connection.call(AGENT_GET, { target: name });
      if (info.prompt) prompts[name] = info.prompt;
    } catch (error) {
      if (!(error instanceof CorralError)) throw error;
    }
  }
  return Object.keys(prompts).length > 0 ? { prompts } : {};
}
