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
