// Corral's service worker: what makes the page installable, and what shows the daemon's pushes with
// every page closed (docs/web.md, "On your phone"). It caches nothing: every view is live data from
// the daemon, and a stale board would say an agent is fine when it is not.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', () => {});

/** A push from the daemon: `{v: 1, kind, title, body, tag, url, pane, state, promptId, actions}`. */
self.addEventListener('push', (event) => {
  let payload = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  if (payload === null || payload.v !== 1) {
    event.waitUntil(self.registration.showNotification('Corral', { body: 'an agent needs you', icon: '/icon.svg', data: { url: '/' } }));
    return;
  }
  const most = (self.Notification && self.Notification.maxActions) || 2;
  const actions = (payload.actions || []).slice(0, most);
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag,
      icon: '/icon.svg',
      data: { ...payload, actions },
      actions: actions.map((action) => ({ action: action.action, title: action.title })),
      requireInteraction: payload.kind === 'attention' && payload.state === 'blocked',
      silent: payload.kind === 'resolved',
    }),
  );
});

/** Why a button typed nothing, as the next notification says it (POST /push/answer's outcomes). */
const REFUSED = {
  prompt_changed: 'the question changed before the tap: nothing was typed',
  used: 'this button was used already: nothing was typed again',
  expired: 'this button expired: nothing was typed',
  invalid: 'this button does not answer that: nothing was typed',
};

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const chosen = event.action && Array.isArray(data.actions) ? data.actions.find((action) => action.action === event.action) : undefined;
  if (chosen) {
    event.waitUntil(answer(data, chosen));
    return;
  }
  event.waitUntil(openPage(data.url || '/'));
});

/** Posts the button's token; a refusal is told in a notification under the same tag, which opens the page. */
async function answer(data, chosen) {
  let outcome = 'unreachable';
  try {
    const reply = await fetch('/push/answer', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: chosen.token, choice: chosen.action, pane: data.pane }),
    });
    outcome = (await reply.json()).outcome || outcome;
  } catch {
    // corral web is not reachable from here: say so below
  }
  if (outcome === 'answered') return;
  await self.registration.showNotification(data.title || 'Corral', {
    body: `${REFUSED[outcome] || 'corral web could not be reached: nothing was typed'}; open to answer`,
    tag: data.tag,
    icon: '/icon.svg',
    data: { url: data.url || '/' },
  });
}

async function openPage(url) {
  const windows = await self.clients.matchAll({ type: 'window' });
  for (const window of windows) if ('focus' in window) return window.navigate(url).then((w) => w && w.focus());
  return self.clients.openWindow(url);
}
