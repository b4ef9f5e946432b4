// Corral's service worker: what makes the page installable. It caches nothing: every view is live
// data from the daemon, and a stale board would say an agent is fine when it is not.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', () => {});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url ? event.notification.data.url : '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((windows) => {
      for (const window of windows) if ('focus' in window) return window.navigate(url).then((w) => w && w.focus());
      return self.clients.openWindow(url);
    }),
  );
});
