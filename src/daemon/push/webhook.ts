import { createHmac } from 'node:crypto';
import type { InboxItem } from '../../protocol/methods/inbox.ts';
import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { WebhookConfig } from '../config/index.ts';
import type { Logger } from '../logger.ts';
import type { AnswerTokens } from './answer-tokens.ts';
import { answerActions } from './answer-actions.ts';
import { deliveryOf, type Delivery } from './delivery-rules.ts';
import { HttpQueue, post, REQUEST_TIMEOUT_MS, type QueuedRequest } from './http-queue.ts';
import { attentionPayload, resolvedPayload, type PushAction, type PushPayload } from './push-payload.ts';
import type { WebhookStore } from './webhook-store.ts';

/** Posts waiting at most; one more is dropped and logged (and posted at the next start, if still in the inbox). */
export const MAX_QUEUED_POSTS = 64;
export const SIGNATURE_HEADER = 'x-corral-signature';
export const TIMESTAMP_HEADER = 'x-corral-timestamp';
export const DELIVERY_HEADER = 'x-corral-delivery';

/** A webhook's button: the push's action, and the link that opens its confirmation page in `corral web`. */
export interface WebhookAction extends PushAction {
  url: string;
}

/** What the webhook posts: the push payload (docs/web.md), its `url` absolute and a link per button when `public_url` is set. */
export interface WebhookPayload extends Omit<PushPayload, 'actions'> {
  actions: WebhookAction[];
}

/** `sha256=` and the hex HMAC-SHA256 of `TIMESTAMP.BODY` under the secret (docs/web.md, "Checking the signature"). */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

interface WebhookJob extends QueuedRequest {
  item: number;
  /** The delivery header's id: `item-N` for the item, `item-N-resolved` for its follow-up. */
  delivery: string;
  body: string;
}

export interface WebhookOptions {
  config: WebhookConfig & { url: string };
  store: WebhookStore;
  tokens: AnswerTokens;
  buttons(prompt: AgentPrompt): PromptChoice[];
  host: string;
  /** The life of its answer links (`[notify.push] ttl_s`). */
  ttlSeconds: number;
  log: Logger;
}

/**
 * `[notify.webhook]`: each inbox item posted once as JSON to the URL set (durable across restarts, like
 * a push device's), signed when a secret is set, with one single-use answer link per safe choice. A
 * link opens a confirmation page in `corral web`: fetching it (a chat app's preview) answers nothing.
 */
export class Webhook implements Disposable {
  private readonly queue: HttpQueue<WebhookJob>;
  /** Items queued and not yet told: offered again meanwhile (a quiet hours' end), not posted twice. */
  private readonly sending = new Set<number>();
  /** Items posted in this daemon's life, by id: what an acknowledgement follows up (at most 1000). */
  private readonly posted = new Map<number, InboxItem>();
  /** Tries outside the queue (tests) still waiting on their receiver. */
  private readonly trying = new Set<AbortController>();
  private disposed = false;

  constructor(private readonly options: WebhookOptions) {
    const sendOnce = (job: WebhookJob, signal: AbortSignal) => this.postOnce(job.delivery, job.body, signal);
    this.queue = new HttpQueue(sendOnce, { maxQueued: MAX_QUEUED_POSTS, concurrent: 2, what: 'webhook' }, options.log);
  }

  /** Where it posts, and whether it signs: what a test tells the person. */
  get receiver(): { url: string; signed: boolean; publicUrl: string | null; host: string } {
    const { url, secret, publicUrl } = this.options.config;
    return { url, signed: secret !== null, publicUrl, host: this.options.host };
  }

  /** One try of one delivery, with its headers and signature made now. */
  postOnce(delivery: string, body: string, signal: AbortSignal): Promise<{ status: number; retryAfter: string | null }> {
    const { url, secret } = this.options.config;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'corral-webhook', [DELIVERY_HEADER]: delivery, [TIMESTAMP_HEADER]: timestamp };
    if (secret !== null) headers[SIGNATURE_HEADER] = signature(secret, timestamp, body);
    return post(url, { headers, body }, signal);
  }

  /**
   * One try of `body` under `delivery`, outside the queue and never retried (a person waits for it),
   * limited to REQUEST_TIMEOUT_MS and ended by dispose: the status, or the error that kept it from coming.
   */
  async tryOnce(delivery: string, body: string): Promise<{ status: number } | { error: unknown; timedOut: boolean }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    this.trying.add(controller);
    try {
      return { status: (await this.postOnce(delivery, body, controller.signal)).status };
    } catch (error) {
      return { error, timedOut: controller.signal.aborted && !this.disposed };
    } finally {
      clearTimeout(timer);
      this.trying.delete(controller);
    }
  }

  /** Posts the item now if the webhook wants it and never took it; what it decided (a hold: when to offer it again). */
  offer(item: InboxItem, daemonQuietHours: string | null, now: Date): Delivery {
    const { store, config, log } = this.options;
    if (store.wasPosted(item.id) || this.sending.has(item.id)) return { skip: true };
    const delivery = deliveryOf(item, { states: config.events, workspaces: config.workspaces, quietHours: config.quietHours }, daemonQuietHours, now);
    if (!('send' in delivery)) return delivery;
    this.sending.add(item.id);
    this.queue.send({
      to: 'webhook',
      item: item.id,
      delivery: `item-${item.id}`,
      body: JSON.stringify(this.payload(item)),
      done: (status, error) => {
        this.sending.delete(item.id);
        if (error !== null) return log.warn({ item: item.id, status, error }, 'webhook not delivered');
        store.record(item.id);
        this.posted.set(item.id, item);
        while (this.posted.size > 1000) this.posted.delete(this.posted.keys().next().value!);
      },
    });
    return delivery;
  }

  /**
   * An item posted in this daemon's life was acknowledged (answered, seen, dismissed): one quiet
   * follow-up, `kind: "resolved"` under the same item, so a bridge can mark its message and drop its
   * buttons. An item acknowledged before its post went out has none.
   */
  resolve(id: number): void {
    const item = this.posted.get(id);
    if (!item) return;
    this.posted.delete(id);
    const base = this.options.config.publicUrl;
    const resolved = resolvedPayload(item, this.options.host);
    this.queue.send({
      to: 'webhook',
      item: id,
      delivery: `item-${id}-resolved`,
      body: JSON.stringify({ ...resolved, url: base === null ? resolved.url : `${base}${resolved.url}` }),
      done: (status, error) => {
        if (error !== null) this.options.log.warn({ item: id, status, error }, 'webhook follow-up not delivered');
      },
    });
  }

  dispose(): void {
    this.disposed = true;
    this.queue.dispose();
    for (const controller of this.trying) controller.abort();
  }

  private payload(item: InboxItem): WebhookPayload {
    const base = this.options.config.publicUrl;
    const pushed = attentionPayload(item, this.options.host, base === null ? [] : answerActions(item, this.options));
    const actions = pushed.actions.map((action) => ({ ...action, url: `${base}/answer?${new URLSearchParams({ token: action.token, choice: action.action, pane: item.pane.id })}` }));
    return { ...pushed, url: base === null ? pushed.url : `${base}${pushed.url}`, actions };
  }
}
