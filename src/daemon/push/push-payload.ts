import { failureText, type InboxItem } from '../../protocol/methods/inbox.ts';
import { workspaceOf } from './delivery-rules.ts';

/** Every push service takes 4 KiB of payload (RFC 8291 records, RFC 8030); this leaves room for the encryption's overhead. */
export const MAX_PAYLOAD_BYTES = 3 * 1024;
/** A prompt's text is cut to this many characters in a notification: a phone shows a few lines. */
const MAX_BODY_CHARS = 600;
const MAX_TITLE_CHARS = 120;
/** What the body says of a prompt Corral has not seen whole: no buttons, the page has the screen. */
export const OPEN_TO_ANSWER = 'open to answer';

/** One notification button: the choice's id, its label, and the single-use token that answers with it. */
export interface PushAction {
  action: string;
  title: string;
  token: string;
}

/** What a device receives, encrypted (docs/web.md, "On your phone"); the service worker shows it. */
export interface PushPayload {
  v: 1;
  kind: 'attention' | 'resolved' | 'test';
  title: string;
  body: string;
  /** The notification's tag: the inbox item, so a page's notification and a push of one item replace each other. */
  tag: string;
  item: number | null;
  url: string;
  host: string;
  pane: string | null;
  agent: string | null;
  state: InboxItem['state'] | null;
  promptId: string | null;
  actions: PushAction[];
}

/** The page of the agent in `corral web`, relative to wherever the device reaches it. */
export function agentUrl(paneId: string): string {
  return `/#/agent/${encodeURIComponent(paneId)}`;
}

/**
 * The payload of an inbox item: the agent, its pane and host in the title; the prompt's whole text in
 * the body, or "open to answer" when the prompt was not read whole (never a cut question); the buttons
 * given, which the caller mints only for a complete prompt's safe choices.
 */
export function attentionPayload(item: InboxItem, host: string, actions: PushAction[]): PushPayload {
  const who = `${item.agent ?? 'agent'} in ${item.pane.name ?? item.pane.id}`;
  const prompt = item.state === 'blocked' ? item.prompt : null;
  const title = item.state === 'blocked' ? `${who} asks` : item.state === 'budget' ? `${who}: a budget is spent` : item.state === 'failed' ? `${who} ${failedText(item)}` : `${who} is done`;
  // A question is shown whole or not at all: one Corral did not read whole, or too long for a notification, opens the page.
  const whole = prompt !== null && prompt.complete && prompt.text.length <= MAX_BODY_CHARS;
  let body: string;
  if (item.state === 'done') body = cut(item.message || 'its turn ended', MAX_BODY_CHARS);
  else if (item.state === 'budget') body = cut(item.message || 'a budget reached its limit', MAX_BODY_CHARS);
  else if (item.state === 'failed') body = `${item.agent ?? 'agent'} ${failedText(item)} in workspace ${workspaceOf(item.pane.id)} on ${host}`;
  else if (!whole) body = OPEN_TO_ANSWER;
  else body = prompt.text;
  return fitted({
    ...ofItem(item, host, 'attention', title, cut(body, MAX_BODY_CHARS + 1)),
    promptId: whole ? prompt.id : null,
    actions: whole ? actions : [],
  });
}

/** `failed (exit 3)` or `failed (signal SIGKILL)`. */
function failedText(item: InboxItem): string {
  return item.exit ? `failed (${failureText(item.exit)})` : 'failed';
}

/** What every notification of an inbox item says of it: its title on this host, its tag, its page. */
function ofItem(item: InboxItem, host: string, kind: 'attention' | 'resolved', title: string, body: string): Omit<PushPayload, 'promptId' | 'actions'> {
  return {
    v: 1,
    kind,
    title: `${cut(title, MAX_TITLE_CHARS)} · ${host}`,
    body,
    tag: `corral-inbox-${item.id}`,
    item: item.id,
    url: agentUrl(item.pane.id),
    host,
    pane: item.pane.id,
    agent: item.agent,
    state: item.state,
  };
}

/** `corral notify push test`: a notification that says where it comes from and answers nothing. */
export function testPayload(host: string): PushPayload {
  return { v: 1, kind: 'test', title: `Corral on ${host}`, body: 'notifications from this daemon reach this device', tag: 'corral-test', item: null, url: '/', host, pane: null, agent: null, state: null, promptId: null, actions: [] };
}

export function encodePayload(payload: PushPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

/** A payload over MAX_PAYLOAD_BYTES (wide characters, long labels: a prompt is untrusted) says "open to answer" instead, with no buttons. */
function fitted(payload: PushPayload): PushPayload {
  if (encodePayload(payload).length <= MAX_PAYLOAD_BYTES) return payload;
  return { ...payload, body: OPEN_TO_ANSWER, actions: [], promptId: null };
}

function cut(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ' ');
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/** An item acknowledged after it was pushed (answered, seen, left): a quiet notification under its tag replaces the question. */
export function resolvedPayload(item: InboxItem, host: string): PushPayload {
  const who = `${item.agent ?? 'agent'} in ${item.pane.name ?? item.pane.id}`;
  return { ...ofItem(item, host, 'resolved', who, item.state === 'blocked' ? 'answered' : 'seen'), promptId: null, actions: [] };
}
