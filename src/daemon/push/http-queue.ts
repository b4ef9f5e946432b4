import type { Disposable } from '../../base/disposable.ts';
import type { Logger } from '../logger.ts';

/** One request's limit: a slow receiver costs a timer, never the daemon's time. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Tries of one request, counting the first, on 429, 5xx or a network failure. */
const TRIES = 5;
const FIRST_RETRY_MS = 1_000;
/** The longest wait before a retry, whatever the receiver's Retry-After asks. */
const MAX_RETRY_MS = 60_000;

/** A request to send: told once how it ended. */
export interface QueuedRequest {
  /** Who it goes to, for the log (a device id, `webhook`). */
  to: string;
  /** Told once: the receiver's final status, or null and why when none came. */
  done(status: number | null, error: string | null): void;
}

/** Sends one try of a request (made again for each try: a signature or a timestamp may change); the status and Retry-After. */
export type SendOnce<J> = (job: J, signal: AbortSignal) => Promise<{ status: number; retryAfter: string | null }>;

interface Queued<J> {
  job: J;
  tries: number;
}

/**
 * Sends HTTP requests off the daemon's path: a bounded queue, a few requests at once, each with a
 * timeout, retried with a growing delay on 429 and 5xx (or as Retry-After asks, RFC 8030 section 8.4,
 * RFC 9110). The push devices and the webhook each have one.
 */
export class HttpQueue<J extends QueuedRequest> implements Disposable {
  private readonly queue: Queued<J>[] = [];
  private readonly inFlight = new Set<AbortController>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private disposed = false;

  constructor(
    private readonly sendOnce: SendOnce<J>,
    private readonly limits: { maxQueued: number; concurrent: number; what: string },
    private readonly log: Logger,
  ) {}

  /** Queues a request; false (and the job told) when the queue is full. */
  send(job: J): boolean {
    if (this.disposed || this.queue.length >= this.limits.maxQueued) {
      this.log.warn({ to: job.to, queued: this.queue.length }, `${this.limits.what} queue full: dropped`);
      job.done(null, `the ${this.limits.what} queue is full`);
      return false;
    }
    this.queue.push({ job, tries: 0 });
    this.pump();
    return true;
  }

  /** Ends every request and timer; requests still queued are told they were not sent. */
  dispose(): void {
    this.disposed = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    for (const controller of this.inFlight) controller.abort();
    for (const { job } of this.queue.splice(0)) job.done(null, 'the daemon stopped');
  }

  private pump(): void {
    while (!this.disposed && this.inFlight.size < this.limits.concurrent && this.queue.length > 0) {
      const next = this.queue.shift()!;
      const controller = new AbortController();
      this.inFlight.add(controller);
      void this.attempt(next, controller).finally(() => {
        this.inFlight.delete(controller);
        this.pump();
      });
    }
  }

  private async attempt(queued: Queued<J>, controller: AbortController): Promise<void> {
    const { job } = queued;
    queued.tries += 1;
    let status: number | null = null;
    let retryAfter: string | null = null;
    let problem: string | null = null;
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      ({ status, retryAfter } = await this.sendOnce(job, controller.signal));
    } catch (error) {
      problem = this.disposed ? 'the daemon stopped' : controller.signal.aborted ? `no answer in ${REQUEST_TIMEOUT_MS} ms` : (error as Error).message;
    } finally {
      clearTimeout(timer);
    }
    if (this.disposed) return job.done(status, problem ?? (status === null ? 'the daemon stopped' : null));
    const again = status === null || status === 429 || status >= 500;
    if (again && queued.tries < TRIES) {
      const delay = retryDelay(queued.tries, retryAfter);
      this.log.info({ to: job.to, status, problem, tries: queued.tries, delayMs: delay }, `${this.limits.what} not taken: trying again`);
      const retry = setTimeout(() => {
        this.retries.delete(retry);
        if (this.disposed) return job.done(null, 'the daemon stopped');
        this.queue.push(queued);
        this.pump();
      }, delay);
      retry.unref();
      this.retries.add(retry);
      return;
    }
    job.done(status, status !== null && status >= 200 && status < 300 ? null : (problem ?? `the receiver answered ${status}`));
  }
}

/** 1 s, 2 s, 4 s... or what Retry-After (seconds) asks, at most MAX_RETRY_MS. */
function retryDelay(tries: number, retryAfter: string | null): number {
  const asked = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null;
  return Math.min(MAX_RETRY_MS, asked ?? FIRST_RETRY_MS * 2 ** (tries - 1));
}

/** Sends with fetch, no redirect followed, the response's body discarded. */
export async function post(url: string, init: { headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | string | null }, signal: AbortSignal): Promise<{ status: number; retryAfter: string | null }> {
  const response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal, redirect: 'error' });
  await response.body?.cancel();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}
