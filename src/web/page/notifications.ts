/**
 * The browser's notifications while a page is open: one when an agent enters blocked or done (the
 * daemon's `agent.attention`, which already holds its cooldown). Asked for only on a person's tap.
 */
export class PageNotifications {
  constructor(private readonly button: HTMLButtonElement) {
    if (!('Notification' in window)) return;
    this.button.hidden = Notification.permission !== 'default';
    this.button.onclick = () =>
      void Notification.requestPermission().then(() => {
        this.button.hidden = Notification.permission !== 'default';
      });
  }

  show(attention: { id: string; state: string; title: string; body: string }): void {
    if (!('Notification' in window) || Notification.permission !== 'granted') return;
    const options = { body: attention.body, tag: `${attention.id}:${attention.state}`, icon: '/icon.svg', data: { url: `/#/agent/${encodeURIComponent(attention.id)}` } };
    // Through the service worker where there is one: a phone shows only those.
    void navigator.serviceWorker?.getRegistration().then((registration) => {
      if (registration) return registration.showNotification(attention.title, options);
      new Notification(attention.title, options);
    });
  }
}
