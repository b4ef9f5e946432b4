import { STATUS_CODES } from 'node:http';
import { CorralError } from '../../protocol/errors.ts';
import { REQUEST_TIMEOUT_MS } from './http-queue.ts';
import { testPayload } from './push-payload.ts';
import type { Webhook } from './webhook.ts';

/** What `webhook.test` answers when the receiver took the delivery. */
export interface WebhookTestResult {
  receiver: string;
  delivery: string;
  status: number;
  signed: boolean;
}

/**
 * `webhook.test`: the test payload (`kind: "test"`, no answer links) posted once, signed as every
 * delivery; a 2xx is the result, anything else `webhook_failed` saying in words what came back and
 * what to check. The receiver's path is never shown: it may hold a secret (a chat service's hook URL).
 */
export async function testWebhook(webhook: Webhook): Promise<WebhookTestResult> {
  const { url, signed, publicUrl, host } = webhook.receiver;
  const receiver = new URL(url).origin;
  const delivery = `test-${Date.now()}`;
  const payload = testPayload(host);
  const body = JSON.stringify({ ...payload, body: 'deliveries of this daemon reach this receiver', url: publicUrl === null ? payload.url : `${publicUrl}${payload.url}` });
  const outcome = await webhook.tryOnce(delivery, body);
  if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) return { receiver, delivery, status: outcome.status, signed };
  const problem = 'status' in outcome ? statusProblem(receiver, outcome.status) : reachProblem(receiver, outcome.error, outcome.timedOut);
  throw new CorralError('webhook_failed', `the test delivery ${delivery} was not taken: ${problem}`, { delivery, status: 'status' in outcome ? outcome.status : null });
}

function statusProblem(receiver: string, status: number): string {
  const said = `${receiver} answered ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
  if (status === 401 || status === 403) return `${said}: if it checks X-Corral-Signature, give it the secret of [notify.webhook] (docs/web.md, "A webhook")`;
  if (status === 404 || status === 405) return `${said}: check the path of [notify.webhook] url`;
  if (status === 429 || status >= 500) return `${said}: the receiver is busy or failing; real deliveries are tried again up to 5 times, this test once`;
  return `${said}: the receiver refused the delivery`;
}

/** Why no status came, from fetch's error and its cause (a system error's code, a TLS error's). */
function reachProblem(receiver: string, error: unknown, timedOut: boolean): string {
  if (timedOut) return `${receiver} gave no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : null;
  const message = typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return `nothing listens at ${receiver} (connection refused): start the receiver, or check [notify.webhook] url`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host of ${receiver} is not found (${code}): check [notify.webhook] url`;
  if (code !== null && /CERT|SELF_SIGNED|TLS|SSL/.test(code)) return `the TLS certificate of ${receiver} was refused (${code}): give it one this machine trusts`;
  if (/redirect/i.test(message)) return `${receiver} answered with a redirect, which deliveries never follow: set [notify.webhook] url to where it leads`;
  return `could not post to ${receiver}: ${message}${code !== null && !message.includes(code) ? ` (${code})` : ''}`;
}
