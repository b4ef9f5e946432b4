/**
 * The page's key (src/web/sessions.ts): traded with the printed URL's token, kept in this origin's
 * localStorage, which the browser never gives a page of another port or host (the cookie it does send
 * to them), and presented on the socket. Shared by this browser's tabs of the origin and kept across
 * restarts, like the cookie, so a new tab or the installed app opens signed in.
 */
const KEY_ITEM = 'corral.key';

/** Trades a token in the address bar, if any, for a key; then the key this browser holds, or null. */
export async function signIn(): Promise<string | null> {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token !== null) {
    history.replaceState(null, '', '/');
    const reply = await fetch('/session', { method: 'POST', body: token, credentials: 'same-origin' }).catch(() => null);
    if (reply?.ok) storeKey(((await reply.json()) as { key: string }).key);
  }
  return heldKey();
}

export function heldKey(): string | null {
  return localStorage.getItem(KEY_ITEM);
}

function storeKey(key: string): void {
  localStorage.setItem(KEY_ITEM, key);
}

/** Whether the server still knows this key's session: false when it said no, null when it did not answer. */
export async function sessionStands(key: string): Promise<boolean | null> {
  const reply = await fetch('/session', { headers: { 'x-corral-key': key }, credentials: 'same-origin', cache: 'no-store' }).catch(() => null);
  if (reply === null) return null;
  return reply.status === 401 ? false : true;
}

/** Forgets a key the server no longer knows (unless another tab has signed in anew meanwhile). */
export function forgetKey(key: string): void {
  if (heldKey() === key) localStorage.removeItem(KEY_ITEM);
}
