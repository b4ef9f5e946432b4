import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Emitter } from '../base/emitter.ts';
import { browserName, cleanUserAgent } from './user-agent.ts';

/** Sessions kept at once; the oldest is forgotten (and its pages closed) when a new one would pass it. */
export const MAX_SESSIONS = 64;
/** A session's life. */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
export const COOKIE_NAME = 'corral_session';

/** One signed-in browser: what it shows as, and its two secrets. */
export interface WebSession {
  /** Numbers sessions in the order they signed in: `corral web sessions revoke N`. */
  readonly number: number;
  /** When it traded the token (ms since the epoch). */
  readonly signedIn: number;
  /** Its User-Agent header, cleaned (src/web/user-agent.ts). */
  readonly userAgent: string;
  /** What every viewer sees of it (the lease holder): `#3 Chrome 131 on Android, signed in 2026-12-06 04:12`. */
  readonly label: string;
}

interface Held extends WebSession {
  readonly cookie: string;
  readonly key: string;
}

/** Why a session ended: its pages are closed at once. */
export interface SessionEnd {
  session: WebSession;
  reason: 'evicted' | 'revoked' | 'expired';
}

/**
 * The sign-in of `corral web`. One random token, printed in the URL it starts with, is traded by a
 * page for two secrets: a cookie (HttpOnly, SameSite=Strict), which the browser also sends to every
 * other server on the same host, whatever its port (RFC 6265 section 8.5), and a key, which the page
 * keeps in its origin's storage and presents itself. The cookie alone serves the page's code; the
 * socket, where everything happens, needs both. The token stays valid while the server runs, so a
 * second device can open the same URL.
 */
export class Sessions {
  readonly token = randomBytes(24).toString('base64url');
  /** By cookie, oldest first. */
  private readonly held = new Map<string, Held>();
  private nextNumber = 1;
  private readonly ended = new Emitter<SessionEnd>();
  readonly onEnd = this.ended.event;

  /** A new session for the right token, else null; past MAX_SESSIONS the oldest ends. */
  exchange(token: string, userAgentHeader: string | undefined, now = Date.now()): { cookie: string; key: string; session: WebSession } | null {
    if (!sameSecret(token, this.token)) return null;
    const number = this.nextNumber++;
    const userAgent = cleanUserAgent(userAgentHeader);
    const session: Held = {
      number,
      signedIn: now,
      userAgent,
      label: `#${number} ${browserName(userAgent)}, signed in ${localMinute(now)}`,
      cookie: randomBytes(24).toString('base64url'),
      key: randomBytes(24).toString('base64url'),
    };
    this.held.set(session.cookie, session);
    while (this.held.size > MAX_SESSIONS) this.end(this.held.values().next().value!, 'evicted');
    return { cookie: session.cookie, key: session.key, session: publicView(session) };
  }

  /** The live session a cookie names, else null: enough for the page's code, never for the socket. */
  byCookie(cookie: string | undefined, now = Date.now()): WebSession | null {
    const session = cookie === undefined ? undefined : this.held.get(cookie);
    if (session === undefined) return null;
    if (now - session.signedIn > SESSION_TTL_MS) {
      this.end(session, 'expired');
      return null;
    }
    return publicView(session);
  }

  /** The live session a cookie names whose key is `key` too, else null. */
  byCookieAndKey(cookie: string | undefined, key: string | undefined, now = Date.now()): WebSession | null {
    if (key === undefined || this.byCookie(cookie, now) === null) return null;
    const session = this.held.get(cookie!)!;
    return sameSecret(key, session.key) ? publicView(session) : null;
  }

  list(): WebSession[] {
    return [...this.held.values()].map(publicView);
  }

  /** Ends the session numbered `number` (every one for 'all'); the sessions ended. */
  revoke(number: number | 'all'): WebSession[] {
    const gone = [...this.held.values()].filter((session) => number === 'all' || session.number === number);
    for (const session of gone) this.end(session, 'revoked');
    return gone.map(publicView);
  }

  get size(): number {
    return this.held.size;
  }

  private end(session: Held, reason: SessionEnd['reason']): void {
    this.held.delete(session.cookie);
    this.ended.fire({ session: publicView(session), reason });
  }
}

/** The same object every time for one session, so that pages can be matched to it by identity. */
const views = new WeakMap<Held, WebSession>();
function publicView(session: Held): WebSession {
  let view = views.get(session);
  if (view === undefined) {
    view = { number: session.number, signedIn: session.signedIn, userAgent: session.userAgent, label: session.label };
    views.set(session, view);
  }
  return view;
}

function localMinute(ms: number): string {
  const date = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The session cookie's value from a Cookie header. */
export function sessionCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE_NAME) return value.join('=');
  }
  return undefined;
}

export function setCookie(id: string, secure: boolean): string {
  return `${COOKIE_NAME}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}${secure ? '; Secure' : ''}`;
}

/** The subprotocol a page offers beside `corral` to present its key on the upgrade: `corral.key.KEY`. */
export const KEY_PROTOCOL_PREFIX = 'corral.key.';
/** The subprotocol the server answers with. */
export const PAGE_PROTOCOL = 'corral';
/** The header a page presents its key in on a request of its own (GET /session). */
export const KEY_HEADER = 'x-corral-key';

/** The key a page offered in Sec-WebSocket-Protocol, if any. */
export function offeredKey(header: string | undefined): string | undefined {
  for (const protocol of (header ?? '').split(',')) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(KEY_PROTOCOL_PREFIX)) return trimmed.slice(KEY_PROTOCOL_PREFIX.length);
  }
  return undefined;
}
