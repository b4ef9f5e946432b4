import { answerWithToken, refusal, tokenAnswer, type PushAnswerReply } from './push-answer.ts';
import type { WebBoard } from './web-board.ts';

/** A page of the answer link: its HTTP status and HTML. */
export interface LinkPage {
  status: number;
  html: string;
}

/**
 * The headers of a link's pages: no script at all, a form that posts only to this server, and a
 * referrer policy that still sends the form's Origin (the POST is refused without it: under
 * `no-referrer` a browser sends `Origin: null`) while the link's token never leaves this origin.
 */
export const LINK_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/** What each outcome tells the person, in words (the same outcomes as POST /push/answer). */
const SAID: Record<string, string> = {
  answered: 'Answered. The agent has your answer.',
  prompt_changed: 'Nothing was typed: the question changed since this link was sent (it was answered, or the agent moved on). Open Corral to see what it asks now.',
  expired: 'Nothing was typed: this link has expired (a link lasts as long as [notify.push] ttl_s, and none outlives a restart of the daemon). Open Corral to answer.',
  used: 'Nothing was typed: this link was used already. Each link answers once.',
  invalid: 'Nothing was typed: this link is incomplete, or not for this agent.',
  unreachable: 'Nothing was typed: corral web cannot reach the daemon right now.',
};

/**
 * GET /answer?token&choice&pane, a webhook's answer link (docs/web.md, "A webhook"): what the token
 * would answer and one button, whose form posts the answer. Fetching the link types nothing, so a chat
 * app's preview of it answers nothing.
 */
export async function confirmationPage(query: URLSearchParams, board: WebBoard): Promise<LinkPage> {
  const answer = tokenAnswer(Object.fromEntries(query));
  if (answer === null) return page(400, 'invalid', '');
  let peeked: { label: string; agent: string | null; paneName: string | null; host: string; question: string };
  try {
    const route = board.route(answer.pane);
    peeked = await route.client.call('push.peek', { token: answer.token, choice: answer.choice, pane: route.target });
  } catch (error) {
    const reply = refusal(error);
    return page(reply.status, reply.body.outcome, '');
  }
  const who = `${peeked.agent ?? 'An agent'} in ${peeked.paneName ?? answer.pane} on ${peeked.host}`;
  const form = `<form method="post" action="/answer">${hidden('token', answer.token)}${hidden('choice', answer.choice)}${hidden('pane', answer.pane)}<button type="submit">Answer “${escape(peeked.label)}”</button></form>`;
  return {
    status: 200,
    html: shell(`<h1>${escape(who)} asks</h1><pre>${escape(peeked.question)}</pre>${form}<p class="note">Nothing is typed until you press the button, and only while this same question is on the screen.</p>`),
  };
}

/** POST /answer, the confirmation page's form (`application/x-www-form-urlencoded`): answered as POST /push/answer answers. */
export async function answerFromLink(body: string, board: WebBoard): Promise<LinkPage & { outcome: string }> {
  const reply: PushAnswerReply = await answerWithToken(Object.fromEntries(new URLSearchParams(body)), board);
  return { ...page(reply.status, reply.body.outcome, ''), outcome: reply.body.outcome };
}

function page(status: number, outcome: string, more: string): LinkPage {
  return { status, html: shell(`<h1>Corral</h1><p class="outcome" data-outcome="${escape(outcome)}">${escape(SAID[outcome] ?? SAID.invalid!)}</p>${more}`) };
}

function shell(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin"><title>Corral</title>
<style>body{font:16px system-ui,sans-serif;margin:1.5em;max-width:40em}pre{white-space:pre-wrap;background:#eee;padding:.75em}button{font-size:1.1em;padding:.6em 1.2em}.note{color:#555;font-size:.9em}</style></head>
<body>${body}</body></html>`;
}

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${escape(value)}">`;
}

/** A pane's bytes and a token's fields are text, never HTML. */
function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
