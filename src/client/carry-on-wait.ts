import { CorralError } from '../protocol/errors.ts';
import { AGENT_WAIT, type AgentWaitResult } from '../protocol/methods/agent-wait.ts';
import type { ParamsOf } from '../protocol/method.ts';
import { retryWithin, type BackoffOptions } from './backoff.ts';
import { ClientError, type DaemonConnection } from './connection.ts';
import { endpointOf, type DaemonAddress } from './endpoint.ts';

export type AgentWaitParams = ParamsOf<typeof AGENT_WAIT>;

export interface CarryOnOptions {
  /** How long the daemon may stay away before the wait gives up with `daemon_unreachable`. */
  graceMs: number;
  backoff?: BackoffOptions;
  /** Aborting it ends the wait: its connection closes, which cancels it in the daemon. */
  signal?: AbortSignal;
  /** Run on each new connection before the wait is asked again (the CLI checks the protocol). */
  prepare?: (connection: DaemonConnection) => Promise<unknown>;
  /** Told each time the daemon went away and the wait goes on. */
  onReconnecting?: (error: Error) => void;
  /**
   * A first dial that reaches no daemon ends the wait at once with its error (the CLI exits 4): there
   * is no wait yet to carry on. Without it, the daemon may come up within `graceMs`.
   */
  daemonFirst?: boolean;
}

/** The daemon went away (closed, crashed, stopping) rather than answering the wait. */
function daemonWentAway(error: unknown): boolean {
  return (error instanceof ClientError && (error.code === 'connection_closed' || error.code === 'daemon_unreachable')) || (error instanceof CorralError && error.code === 'shutting_down');
}

/**
 * `agent.wait` that outlives the daemon: when the daemon goes away it reconnects with back-off and
 * asks the same wait again with what is left of its timeout, so the one deadline holds. The
 * state_change_seq is durable (docs/events.md), so a `sinceSeq` keeps its meaning on the new daemon.
 * It gives up with `daemon_unreachable` only once the daemon stays away past `graceMs`.
 */
export async function waitCarryingOn(address: DaemonAddress, params: AgentWaitParams, options: CarryOnOptions): Promise<AgentWaitResult> {
  const endpoint = endpointOf(address);
  const started = performance.now();
  const deadline = params.timeoutMs !== undefined ? Date.now() + params.timeoutMs : undefined;
  const stopped = options.signal ?? new AbortController().signal;
  let asked = params;
  // The first ask carries the timeout as given (the daemon's message names it); a later one what is left.
  let reasked = false;
  let reached = false;
  const once = async (): Promise<AgentWaitResult> => {
    const connection = await endpoint.dial();
    reached = true;
    const cancel = () => connection.dispose();
    stopped.addEventListener('abort', cancel, { once: true });
    try {
      if (stopped.aborted) throw new ClientError('connection_closed', 'the wait was cancelled');
      await options.prepare?.(connection);
      const timeoutMs = deadline !== undefined && reasked ? Math.max(0, deadline - Date.now()) : params.timeoutMs;
      reasked = true;
      return await connection.call(AGENT_WAIT, { ...asked, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
    } finally {
      stopped.removeEventListener('abort', cancel);
      connection.dispose();
    }
  };
  const elapsed = <T extends { elapsedMs?: number }>(value: T): T => ({ ...value, elapsedMs: Math.round(performance.now() - started) });
  let attempt = once();
  for (;;) {
    try {
      return elapsed(await attempt);
    } catch (error) {
      if (error instanceof CorralError && (error.code === 'timeout' || error.code === 'agent_gone')) {
        throw new CorralError(error.code, error.message, elapsed(error.details as { elapsedMs?: number }));
      }
      if (stopped.aborted || !daemonWentAway(error) || (options.daemonFirst && !reached)) throw error;
      options.onReconnecting?.(error as Error);
      // The daemon took these targets once: a recovering pane whose agent is not named yet is waited for, not refused.
      asked = { ...params, allowUnknown: true };
      const awaySince = Date.now();
      const next = await retryWithin(() => once().then((result) => ({ result })), {
        graceMs: options.graceMs,
        awaySince,
        ...(options.backoff ? { backoff: options.backoff } : {}),
        signal: stopped,
        // Only the daemon's absence is retried: its answer, even an error, ends the wait.
        isFinal: (failure) => !daemonWentAway(failure),
      }).catch((failure: unknown) => ({ failure }));
      if (next === null) {
        if (stopped.aborted) throw error;
        throw new ClientError('daemon_unreachable', `the daemon at ${endpoint.label} went away and did not come back within ${options.graceMs} ms; the wait ended (agents keep running): run it again once the daemon is back`);
      }
      attempt = 'result' in next ? Promise.resolve(next.result) : Promise.reject(next.failure);
    }
  }
}
