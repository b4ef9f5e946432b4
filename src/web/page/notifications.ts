import type { PageRpc } from './rpc.ts';
import { pushAvailable, pushSubscribed, subscribePush } from './push-subscription.ts';
import { openPushSettings } from './push-settings.ts';
/** Item ids already notified, kept in the browser so that a reload or a second tab never notifies again. */
const NOTIFIED_KEY = 'corral.notified';
/** How many notified ids are kept: one per pane and turn, so a few hundred cover any board. */
const NOTIFIED_KEPT = 500;

export interface Attention {
  id: string;
  /** The attention inbox item (docs/events.md): a notification is shown once per item. */
  item: number;
  /** Its host with --fleet, where each host numbers its own items; null for one daemon. */
  host: string | null;
  state: string;
  title: string;
  body: string;
}

/**
 * The browser's notifications while a page is open: one when an item enters the daemon's attention
 * inbox (an agent entered blocked or done), outside the server's cooldown (src/web/board.ts), once
 * per item in this browser. Asked for only on a person's tap.
 */
export class PageNotifications {
  constructor(
    private readonly button: HTMLButtonElement,
    private readonly rpc: PageRpc,
    /** "Notification settings", shown once this device is pushed to. */
    private readonly settings: HTMLButtonElement,
    /** The board's workspaces, offered as the settings' workspace filter. */
    workspaces: () => string[],
  ) {
    if (!('Notification' in window)) return;
    this.settings.onclick = () => void openPushSettings(this.rpc, workspaces()).catch((error: { message?: string }) => (this.settings.title = error.message ?? String(error)));
    void this.refresh();
    this.button.onclick = () =>
      void Notification.requestPermission()
        .then(async (permission) => {
          // With the Push API the daemon itself notifies this device, every page closed (docs/web.md, "On your phone").
          if (permission === 'granted' && pushAvailable()) await subscribePush(this.rpc);
        })
        .catch((error: { message?: string }) => (this.button.title = `push not turned on: ${error.message ?? String(error)}`))
        .finally(() => void this.refresh());
  }

  /** The button shows while there is something to turn on: the permission, or this device's push subscription. */
  private async refresh(): Promise<void> {
    const subscribed = await pushSubscribed().catch(() => false);
    this.button.hidden = Notification.permission === 'denied' || (Notification.permission === 'granted' && (subscribed || !pushAvailable()));
    this.settings.hidden = !(subscribed && Notification.permission === 'granted');
  }

  /** Shows the item's notification unless this browser already did; `looking` skips one the person is looking at. */
  show(attention: Attention, looking: boolean): void {
    if (!('Notification' in window) || Notification.permission !== 'granted') return;
    const key = attention.host === null ? attention.item : `${attention.item}@${attention.host}`;
    if (!firstTime(key) || looking) return;
    const options = { body: attention.body, tag: `corral-inbox-${key}`, icon: '/icon.svg', data: { url: `/#/agent/${encodeURIComponent(attention.id)}` } };
    // Through the service worker where there is one: a phone shows only those.
    void navigator.serviceWorker?.getRegistration().then((registration) => {
      if (registration) return registration.showNotification(attention.title, options);
      new Notification(attention.title, options);
    });
  }
}

/** Records the item as notified; false when it already was (in this tab, another, or before a reload). */
function firstTime(item: number | string): boolean {
  let ids: (number | string)[] = [];
  try {
    const stored = JSON.parse(localStorage.getItem(NOTIFIED_KEY) ?? '[]') as unknown;
    if (Array.isArray(stored)) ids = stored.filter((id): id is number | string => typeof id === 'number' || typeof id === 'string');
  } catch {
    // unreadable: start over
  }
  if (ids.includes(item)) return false;
  ids.push(item);
  try {
    localStorage.setItem(NOTIFIED_KEY, JSON.stringify(ids.slice(-NOTIFIED_KEPT)));
  } catch {
    // storage full or off: the server's once-per-item stream still holds
  }
  return true;
}
