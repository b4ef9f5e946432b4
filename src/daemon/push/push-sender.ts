import webpush from 'web-push';
import type { PushSubscriptionJson } from '../../protocol/methods/push.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { Logger } from '../logger.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** Pushes waiting at most; one more is dropped and logged: a push service that is away never grows the daemon. */
export const MAX_QUEUED_PUSHES = 256;
/** Requests to push services at once. */
const CONCURRENT_PUSHES = 4;
/** One request's limit: a slow push service costs a timer, never the daemon's time. */
export const PUSH_TIMEOUT_MS = 10_000;
/** Tries of one push, counting the first, on 429, 5xx or a network failure. */
const PUSH_TRIES = 5;
const FIRST_RETRY_MS = 1_000;
/** The longest wait before a retry, whatever the push service's Retry-After asks. */
const MAX_RETRY_MS = 60_000;

/** One push to one device (RFC 8030: TTL, Urgency, Topic). */
export interface PushJob {
  device: string;
  subscription: PushSubscriptionJson;
  payload: Buffer;
  ttlSeconds: number;
  urgency: 'normal' | 'high';
  /** A push of the same topic waiting in the push service is replaced by this one. */
  topic: string | null;
  /** Told once: the push service's final status, or null and why when none came. */
  done(status: number | null, error: string | null): void;
}

interface Queued {
  job: PushJob;
  tries: number;
}

/**
 * Sends pushes off the daemon's path: a bounded queue, a few requests at once, each with a timeout,
 * retried with a growing delay on 429 and 5xx (RFC 8030 section 8.4: Retry-After). The payload is
 * encrypted (RFC 8291, aes128gcm) and signed (RFC 8292, VAPID) by `web-push`; the request is our own, so
 * that its timeout and its end at dispose are ours.
 */
export class PushSender implements Disposable {
  private readonly queue: Queued[] = [];
  private readonly inFlight = new Set<AbortController>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private disposed = false;

  constructor(
    /** Read at the first push: a daemon that pushes nothing makes no key pair. */
    private readonly keys: () => VapidKeys,
    private readonly contact: string,
    private readonly log: Logger,
  ) {}

  /** Queues a push; false (and the job told) when the queue is full. */
  send(job: PushJob): boolean {
    if (this.disposed || this.queue.length >= MAX_QUEUED_PUSHES) {
      this.log.warn({ device: job.device, queued: this.queue.length }, 'push queue full: push dropped');
      job.done(null, 'the push queue is full');
      return false;
    }
    this.queue.push({ job, tries: 0 });
    this.pump();
    return true;
  }

  /** Ends every request and timer; pushes still queued are told they were not sent. */
  dispose(): void {
    this.disposed = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    for (const controller of this.inFlight) controller.abort();
    for (const { job } of this.queue.splice(0)) job.done(null, 'the daemon stopped');
  }

  private pump(): void {
    while (!this.disposed && this.inFlight.size < CONCURRENT_PUSHES && this.queue.length > 0) {
      const next = this.queue.shift()!;
      const controller = new AbortController();
      this.inFlight.add(controller);
      void this.attempt(next, controller).finally(() => {
        this.inFlight.delete(controller);
        this.pump();
      });
    }
  }

  private async attempt(queued: Queued, controller: AbortController): Promise<void> {
    const { job } = queued;
    queued.tries += 1;
    let status: number | null = null;
    let retryAfter: string | null = null;
    let problem: string | null = null;
    try {
      const request = webpush.generateRequestDetails({ endpoint: job.subscription.endpoint, keys: job.subscription.keys }, job.payload, {
        vapidDetails: { subject: this.contact, ...this.keys() },
        TTL: job.ttlSeconds,
        urgency: job.urgency,
        ...(job.topic !== null ? { topic: job.topic } : {}),
        contentEncoding: 'aes128gcm',
      });
      const timer = setTimeout(() => controller.abort(), PUSH_TIMEOUT_MS);
      try {
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
        const response = await fetch(request.endpoint, { method: 'POST', headers, body: request.body === null ? null : new Uint8Array(request.body), signal: controller.signal, redirect: 'error' });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        await response.body?.cancel();
      } finally {
        clearTimeout(timer);
      }
    } catch (error) {
      problem = this.disposed ? 'the daemon stopped' : controller.signal.aborted ? `no answer in ${PUSH_TIMEOUT_MS} ms` : (error as Error).message;
    }
    if (this.disposed) return job.done(status, problem ?? (status === null ? 'the daemon stopped' : null));
    const again = status === null || status === 429 || status >= 500;
    if (again && queued.tries < PUSH_TRIES) {
      const delay = retryDelay(queued.tries, retryAfter);
      this.log.info({ device: job.device, status, problem, tries: queued.tries, delayMs: delay }, 'push not taken: trying again');
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        if (this.disposed) return job.done(null, 'the daemon stopped');
        this.queue.push(queued);
        this.pump();
      }, delay);
      timer.unref();
      this.retries.add(timer);
      return;
    }
    job.done(status, status !== null && status >= 200 && status < 300 ? null : (problem ?? `the push service answered ${status}`));
  }
}

/** 1 s, 2 s, 4 s... or what Retry-After (seconds) asks, at most MAX_RETRY_MS. */
function retryDelay(tries: number, retryAfter: string | null): number {
  const asked = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null;
  return Math.min(MAX_RETRY_MS, asked ?? FIRST_RETRY_MS * 2 ** (tries - 1));
}

/** A push service is reached over https; plain http only on a loopback address (a local push service, as in tests). */
export function endpointProblem(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'the endpoint is not a URL';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname))) return null;
  return 'the endpoint must be an https URL (http only on a loopback address)';
}
