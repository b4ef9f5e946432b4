import type { PushDevice } from '../../protocol/methods/push.ts';
import type { PageRpc } from './rpc.ts';

/** The choices of "what": the daemon's `states` (docs/web.md, "What each device receives"). */
const RECEIVE: [string, string][] = [
  ['blocked', 'Blocked agents only'],
  ['blocked,done', 'Blocked and done'],
  ['blocked,done,failed', 'Blocked, done and failed (default)'],
  ['blocked,done,failed,budget', 'Also budget warnings'],
];

/** This browser's device id at the daemon: `d` and 10 hex digits of its endpoint's SHA-256 (src/daemon/push/device-store.ts). */
async function deviceIdOf(endpoint: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint)));
  return `d${[...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, 10)}`;
}

/** This browser's device as the daemon keeps it, or null when it pushes to it no more (or never did). */
export async function thisDevice(rpc: PageRpc): Promise<PushDevice | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return null;
  const id = await deviceIdOf(subscription.endpoint);
  const { devices } = await rpc.call('push.list', {});
  return devices.find((device) => device.id === id) ?? null;
}

/**
 * "Notification settings": what this device receives (push.set): blocked only, blocked and done, also
 * failed agents, or also budget warnings; one workspace or all; its quiet hours, the daemon's, or none. Built of text
 * nodes and form controls only: workspace names come from the panes.
 */
export async function openPushSettings(rpc: PageRpc, workspaces: readonly string[]): Promise<void> {
  const device = await thisDevice(rpc);
  if (device === null) return;
  const dialog = document.createElement('dialog');
  dialog.id = 'push-settings';
  const form = document.createElement('form');
  form.method = 'dialog';
  const title = document.createElement('h2');
  title.textContent = 'Notification settings';
  form.append(title);
  const field = (label: string, control: HTMLElement, hint?: string) => {
    const wrap = document.createElement('label');
    wrap.append(label, control);
    if (hint !== undefined) wrap.append(Object.assign(document.createElement('span'), { className: 'hint', textContent: hint }));
    form.append(wrap);
  };
  // A device's states set elsewhere (the CLI, an older page) stay one choice as they are, so saving keeps them.
  const states = device.states.join(',');
  const receive = select(RECEIVE.some(([key]) => key === states) ? RECEIVE : [...RECEIVE, [states, states]], states);
  const current = device.workspaces?.[0] ?? '';
  const where = select([['', 'Every workspace'], ...[...new Set([...workspaces, current])].filter(Boolean).map((name): [string, string] => [name, name])], current);
  const quiet = document.createElement('input');
  quiet.placeholder = 'as the daemon: [notify] quiet_hours';
  quiet.value = device.quietHours ?? '';
  quiet.pattern = 'off|([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]';
  field('Receive on this device', receive);
  field('From', where);
  field('Quiet hours', quiet, "HH:MM-HH:MM, off, or empty for the daemon's");
  const why = document.createElement('p');
  why.className = 'why';
  const save = document.createElement('button');
  save.type = 'submit';
  save.textContent = 'Save';
  save.className = 'primary';
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  cancel.onclick = () => dialog.close();
  const buttons = document.createElement('div');
  buttons.className = 'dialog-buttons';
  buttons.append(cancel, save);
  form.append(why, buttons);
  form.onsubmit = (event) => {
    event.preventDefault();
    void rpc
      .call('push.set', { id: device.id, states: receive.value.split(',') as PushDevice['states'], workspaces: where.value === '' ? [] : [where.value], quietHours: quiet.value.trim() === '' ? null : quiet.value.trim() })
      .then(() => dialog.close(), (error: { message?: string }) => (why.textContent = error.message ?? String(error)));
  };
  dialog.append(form);
  dialog.onclose = () => dialog.remove();
  document.body.append(dialog);
  dialog.showModal();
}

function select(options: [string, string][], value: string): HTMLSelectElement {
  const element = document.createElement('select');
  for (const [key, label] of options) element.append(new Option(label, key, false, key === value));
  return element;
}
