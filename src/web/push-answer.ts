import { CorralError } from '../protocol/errors.ts';
import type { WebBoard } from './web-board.ts';

/** What `POST /push/answer` replies: the HTTP status and a JSON body naming the outcome. */
export interface PushAnswerReply {
  status: number;
  body: { outcome: string; message?: string };
}

/** The status of each refusal (docs/web.md, "On your phone"): the button is of no use any more, or was never one. */
const STATUS: Record<string, number> = { prompt_changed: 409, used: 409, expired: 410, invalid: 403 };

/**
 * A notification button's answer, `{token, choice, pane}` as the service worker posts it: forwarded to
 * the daemon of `pane` as `push.answer`, which types it only while the pane shows the prompt the token was
 * minted for. The token is all the authority this request has: no session, and nothing else it reaches.
 */
export async function answerFromPush(text: string, board: WebBoard): Promise<PushAnswerReply> {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return { status: 400, body: { outcome: 'invalid', message: 'the body must be JSON: {"token", "choice", "pane"}' } };
  }
  return answerWithToken((request ?? {}) as Record<string, unknown>, board);
}

/** Whether `{token, choice, pane}` are strings of the sizes a token's answer has. */
export function tokenAnswer(fields: Record<string, unknown>): { token: string; choice: string; pane: string } | null {
  const { token, choice, pane } = fields;
  if (typeof token !== 'string' || typeof choice !== 'string' || typeof pane !== 'string' || token.length > 128 || choice.length > 64 || pane.length > 256) return null;
  return { token, choice, pane };
}

/** The answer of a token (a notification's button, a webhook's link): `push.answer` on the daemon of its pane. */
export async function answerWithToken(fields: Record<string, unknown>, board: WebBoard): Promise<PushAnswerReply> {
  const answer = tokenAnswer(fields);
  if (answer === null) return { status: 400, body: { outcome: 'invalid', message: 'the body must name "token", "choice" and "pane" as strings' } };
  try {
    const route = board.route(answer.pane);
    await route.client.call('push.answer', { token: answer.token, choice: answer.choice, pane: route.target });
    return { status: 200, body: { outcome: 'answered' } };
  } catch (error) {
    return refusal(error);
  }
}

/** A daemon's refusal of a token as its reply: the status of its reason (STATUS), 400 for a malformed one, 502 when unreachable. */
export function refusal(error: unknown): PushAnswerReply {
  if (error instanceof CorralError && error.code === 'answer_token_refused') {
    const reason = String(error.details.reason);
    return { status: STATUS[reason] ?? 403, body: { outcome: reason, message: error.message } };
  }
  if (error instanceof CorralError && error.code === 'invalid_params') return { status: 400, body: { outcome: 'invalid', message: error.message } };
  return { status: 502, body: { outcome: 'unreachable', message: error instanceof Error ? error.message : String(error) } };
}
