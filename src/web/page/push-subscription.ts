import type { PageRpc } from './rpc.ts';

/** Whether this browser can take Web Push at all (a secure context with a service worker and the Push API). */
export function pushAvailable(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && window.isSecureContext;
}

/** Whether this browser already has a push subscription (made by this page's service worker). */
export async function pushSubscribed(): Promise<boolean> {
  if (!pushAvailable()) return false;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) != null;
}

/**
 * Subscribes this browser with the daemon's VAPID key and hands the subscription to the daemon
 * (push.key, push.subscribe; docs/web.md, "On your phone"): from then on the daemon pushes each new
 * inbox item here, with no page open. Called on a person's tap, after notifications were allowed.
 */
export async function subscribePush(rpc: PageRpc): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = (await rpc.call('push.key', {})) as { publicKey: string };
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with another key (a daemon that made a new pair) cannot be pushed to by this one.
  if (subscription !== null && !sameKey(subscription.options.applicationServerKey, publicKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(publicKey) });
  const { endpoint, keys } = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await rpc.call('push.subscribe', { subscription: { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } }, label: deviceLabel() });
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(held: ArrayBuffer | null, publicKey: string): boolean {
  if (held === null) return false;
  const wanted = fromBase64Url(publicKey);
  const bytes = new Uint8Array(held);
  return bytes.length === wanted.length && bytes.every((byte, i) => byte === wanted[i]);
}

/** A name for `corral notify push list`: the browser and system, from the user agent. */
function deviceLabel(): string {
  const agent = navigator.userAgent;
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox' : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'browser';
  const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Mac OS X/.test(agent) ? 'macOS' : /Windows/.test(agent) ? 'Windows' : /Linux/.test(agent) ? 'Linux' : 'unknown';
  return `${browser} on ${system}`;
}
