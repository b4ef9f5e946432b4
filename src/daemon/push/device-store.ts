import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { PushDevice, PushSubscriptionJson } from '../../protocol/methods/push.ts';
import type { Logger } from '../logger.ts';
import { readPrivateFile, setAsidePrivateFile, stateDir, writePrivateFile } from '../private-file.ts';

const DEVICES_FILE_VERSION = 1;
/** Devices kept at most: a person's phones and browsers, not a broadcast list. */
export const MAX_DEVICES = 32;
/** Item ids remembered as pushed, per device: far more than the inbox holds unacknowledged at once for a person. */
const SENT_KEPT = 1000;

/** A device as the file keeps it: its subscription, what it wants, and which items it was pushed. */
export interface StoredDevice {
  id: string;
  subscription: PushSubscriptionJson;
  states: PushDevice['states'];
  /** Only these workspaces' items; empty or absent: every one. */
  workspaces?: string[];
  /** Its own quiet hours (`HH:MM-HH:MM`, `off`); null or absent: the daemon's. */
  quietHours?: string | null;
  label: string | null;
  createdAt: number;
  /** Items up to this id were in the inbox before it subscribed: never pushed to it. */
  fromItem: number;
  /** Item ids pushed (the push service answered 2xx), oldest first. */
  pushed: number[];
  sent: number;
  lastStatus: number | null;
}

export function devicesFilePath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), `push-devices-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}.json`);
}

export function deviceId(endpoint: string): string {
  return `d${createHash('sha256').update(endpoint).digest('hex').slice(0, 10)}`;
}

/**
 * The devices the daemon pushes to, and per device the inbox items already pushed, kept in a file of
 * the state folder (0600: the subscriptions' keys are secrets) and written before a push is counted,
 * so that a new daemon pushes no item twice.
 */
export class DeviceStore {
  private devices: StoredDevice[] = [];

  constructor(
    private readonly path: string,
    private readonly log: Logger,
  ) {
    this.load();
  }

  list(): readonly StoredDevice[] {
    return this.devices;
  }

  get(id: string): StoredDevice | undefined {
    return this.devices.find((device) => device.id === id);
  }

  /** Adds or replaces (same endpoint) a device; false when the store is full. */
  put(device: StoredDevice): boolean {
    const others = this.devices.filter((other) => other.id !== device.id);
    if (others.length >= MAX_DEVICES) return false;
    this.devices = [...others, device];
    this.write();
    return true;
  }

  /** Changes what a device receives; the device as it is now, or undefined when there is none. */
  update(id: string, change: Partial<Pick<StoredDevice, 'states' | 'workspaces' | 'quietHours' | 'label'>>): StoredDevice | undefined {
    const device = this.get(id);
    if (!device) return undefined;
    Object.assign(device, change);
    this.write();
    return device;
  }

  remove(id: string): boolean {
    const before = this.devices.length;
    this.devices = this.devices.filter((device) => device.id !== id);
    if (this.devices.length === before) return false;
    this.write();
    return true;
  }

  wasPushed(device: StoredDevice, item: number): boolean {
    return item <= device.fromItem || device.pushed.includes(item);
  }

  /** Records an answer of the push service; an item taken (2xx) is never pushed to the device again. */
  record(id: string, status: number, item: number | null): void {
    const device = this.get(id);
    if (!device) return;
    device.lastStatus = status;
    if (status >= 200 && status < 300) {
      device.sent += 1;
      if (item !== null && !device.pushed.includes(item)) device.pushed = [...device.pushed, item].slice(-SENT_KEPT);
    }
    this.write();
  }

  private write(): void {
    try {
      writePrivateFile(this.path, { version: DEVICES_FILE_VERSION, devices: this.devices });
    } catch (error) {
      this.log.error({ file: this.path, err: error }, 'cannot write the push devices file');
    }
  }

  private load(): void {
    const read = readPrivateFile(this.path);
    if (read.status === 'absent') return;
    const stored = read.status === 'read' ? (read.value as { version?: unknown; devices?: unknown } | null) : null;
    if (read.status === 'read' && stored?.version === DEVICES_FILE_VERSION && Array.isArray(stored.devices)) {
      this.devices = stored.devices.filter(isDevice).slice(0, MAX_DEVICES);
      return;
    }
    try {
      const movedTo = setAsidePrivateFile(this.path);
      this.log.warn({ file: this.path, movedTo, reason: read.status === 'unusable' ? read.reason : 'wrong_shape' }, 'push devices file unusable: moved aside, pushing to no device');
    } catch (error) {
      this.log.error({ file: this.path, err: error }, 'push devices file unusable and cannot be moved aside');
    }
  }
}

function isDevice(value: unknown): value is StoredDevice {
  const device = value as Partial<StoredDevice> | null;
  return (
    typeof device === 'object' && device !== null && typeof device.id === 'string' && typeof device.subscription?.endpoint === 'string' && typeof device.subscription.keys?.p256dh === 'string' &&
    typeof device.subscription.keys.auth === 'string' && Array.isArray(device.states) && Array.isArray(device.pushed) && Number.isSafeInteger(device.fromItem) && Number.isSafeInteger(device.sent)
  );
}

/** A device as `push.list` shows it: the endpoint's origin and a path prefix only (the rest addresses the device). */
export function deviceView(device: StoredDevice): PushDevice {
  let shown = device.subscription.endpoint;
  try {
    const url = new URL(shown);
    shown = `${url.origin}${url.pathname.slice(0, 16)}…`;
  } catch {
    shown = '(not a URL)';
  }
  return {
    id: device.id,
    endpoint: shown,
    states: device.states,
    workspaces: device.workspaces ?? [],
    quietHours: device.quietHours ?? null,
    label: device.label,
    createdAt: device.createdAt,
    sent: device.sent,
    lastStatus: device.lastStatus,
  };
}
