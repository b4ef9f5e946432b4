/** How a lost connection is retried: the first delay, doubled each failed attempt up to a ceiling. */
export interface BackoffOptions {
  /** The first delay in ms (default 100). */
  initialMs?: number;
  /** The longest delay in ms (default 5000). */
  maxMs?: number;
}

/** The delay before each attempt, with up to 20% jitter so that many clients do not retry in step. */
export function backoffDelays(options: BackoffOptions = {}): () => number {
  const initial = Math.max(1, options.initialMs ?? 100);
  const max = Math.max(initial, options.maxMs ?? 5000);
  let next = initial;
  return () => {
    const delay = next;
    next = Math.min(max, next * 2);
    return Math.round(delay * (1 - Math.random() * 0.2));
  };
}

/** Resolves after `ms`, or at once when `signal` aborts (resolving false). */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** How long a wait or a stream keeps trying to reach a daemon that went away before it gives up. */
export const DEFAULT_RECONNECT_GRACE_MS = 60_000;

/**
 * Tries `attempt` with back-off until it resolves, `signal` aborts (null) or `graceMs` have passed
 * since `awaySince` (the last failure is thrown). A `CorralError` (the daemon answered, and refused)
 * is thrown at once: trying again cannot help.
 */
export async function retryWithin<T>(
  attempt: () => Promise<T>,
  options: { graceMs: number; awaySince: number; backoff?: BackoffOptions; signal: AbortSignal; isFinal: (error: unknown) => boolean },
): Promise<T | null> {
  const delay = backoffDelays(options.backoff);
  for (;;) {
    const left = options.awaySince + options.graceMs - Date.now();
    if (left <= 0) return null;
    if (!(await sleep(Math.min(delay(), left), options.signal))) return null;
    try {
      return await attempt();
    } catch (error) {
      if (options.isFinal(error)) throw error;
    }
  }
}
