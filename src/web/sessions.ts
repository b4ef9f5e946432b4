import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Sessions kept at once; the oldest is forgotten when a new one would pass it. */
export const MAX_SESSIONS = 64;
/** A session cookie's life. */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
export const COOKIE_NAME = 'corral_session';

/**
 * The login of `corral web`: one random token, printed in the URL it starts with, which a page trades
 * for a session cookie (HttpOnly, SameSite=Strict). The token stays valid while the server runs, so a
 * second device can open the same URL; it never travels again once traded.
 */
export class Sessions {
  readonly token = randomBytes(24).toString('base64url');
  private readonly sessions = new Map<string, { created: number; label: string }>();
  private nextLabel = 1;

  /** A new session id for the right token, else null. */
  exchange(token: string, now = Date.now()): string | null {
    if (!sameSecret(token, this.token)) return null;
    const id = randomBytes(24).toString('base64url');
    this.sessions.set(id, { created: now, label: `viewer ${this.nextLabel++}` });
    while (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return id;
  }

  /** The viewer's label for a live session id, else null. */
  check(id: string | undefined, now = Date.now()): string | null {
    if (id === undefined) return null;
    const session = this.sessions.get(id);
    if (session === undefined) return null;
    if (now - session.created > SESSION_TTL_MS) {
      this.sessions.delete(id);
      return null;
    }
    return session.label;
  }

  get size(): number {
    return this.sessions.size;
  }
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
