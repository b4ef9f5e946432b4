import webpush from 'web-push';
import type { PushSubscriptionJson } from '../../protocol/methods/push.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { Logger } from '../logger.ts';
import type { VapidKeys } from './vapid-keys.ts';
import { HttpQueue, post, type QueuedRequest } from './http-queue.ts';

/** Pushes waiting at most; one more is dropped and logged: a push service that is away never grows the daemon. */
export const MAX_QUEUED_PUSHES = 256;
/** Requests to push services at once. */
const CONCURRENT_PUSHES = 4;

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

/**
 * Sends pushes off the daemon's path (src/daemon/push/http-queue.ts: bounded, timed, retried on 429 and
 * 5xx). The payload is encrypted (RFC 8291, aes128gcm) and signed (RFC 8292, VAPID) by `web-push`; the
 * request is our own, so that its timeout and its end at dispose are ours.
 */
export class PushSender implements Disposable {
  private readonly queue: HttpQueue<PushJob & QueuedRequest>;

  constructor(
    /** Read at the first push: a daemon that pushes nothing makes no key pair. */
    keys: () => VapidKeys,
    contact: string,
    log: Logger,
  ) {
    const sendOnce = (job: PushJob, signal: AbortSignal) => {
      const request = webpush.generateRequestDetails({ endpoint: job.subscription.endpoint, keys: job.subscription.keys }, job.payload, {
        vapidDetails: { subject: contact, ...keys() },
        TTL: job.ttlSeconds,
        urgency: job.urgency,
        ...(job.topic !== null ? { topic: job.topic } : {}),
        contentEncoding: 'aes128gcm',
      });
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      return post(request.endpoint, { headers, body: request.body === null ? null : new Uint8Array(request.body) }, signal);
    };
    this.queue = new HttpQueue<PushJob & QueuedRequest>(sendOnce, { maxQueued: MAX_QUEUED_PUSHES, concurrent: CONCURRENT_PUSHES, what: 'push' }, log);
  }

  /** Queues a push; false (and the job told) when the queue is full. */
  send(job: PushJob): boolean {
    return this.queue.send({ ...job, to: job.device });
  }

  /** Ends every request and timer; pushes still queued are told they were not sent. */
  dispose(): void {
    this.queue.dispose();
  }
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
