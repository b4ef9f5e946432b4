import { createHash } from 'node:crypto';
import { join } from 'node:path';
import webpush from 'web-push';
import type { Logger } from '../logger.ts';
import { readPrivateFile, setAsidePrivateFile, stateDir, writePrivateFile } from '../private-file.ts';

/** The daemon's VAPID key pair (RFC 8292), base64url as browsers take the public key. */
export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

/** One key pair per daemon socket, beside its inbox; mode 0600 like every state file. */
export function vapidKeyPath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), `push-vapid-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}.json`);
}

/**
 * The key pair in `path`, made and written on first use. A browser's subscription is bound to the
 * public key it subscribed with, so the pair is kept for good: a file that cannot be read is set aside
 * (never overwritten) and a new pair made, and every device must then subscribe again.
 */
export function loadVapidKeys(path: string, log: Logger): VapidKeys {
  const read = readPrivateFile(path);
  if (read.status === 'read') {
    const stored = read.value as Partial<VapidKeys> | null;
    if (stored && typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  }
  if (read.status !== 'absent') {
    const movedTo = setAsidePrivateFile(path);
    log.warn({ file: path, movedTo, reason: read.status === 'unusable' ? read.reason : 'wrong_shape' }, 'push key file unusable: moved aside; devices must subscribe again');
  }
  const made = webpush.generateVAPIDKeys();
  writePrivateFile(path, { version: 1, publicKey: made.publicKey, privateKey: made.privateKey, createdAt: Date.now() });
  log.info({ file: path }, 'made the push key pair');
  return { publicKey: made.publicKey, privateKey: made.privateKey };
}
