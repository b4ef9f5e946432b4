import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import { readPrivateFile, setAsidePrivateFile, stateDir, writePrivateFile } from '../private-file.ts';

const WEBHOOK_FILE_VERSION = 1;
/** Item ids remembered as posted: far more than the inbox holds unacknowledged at once. */
const POSTED_KEPT = 1000;

export function webhookFilePath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), `push-webhook-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}.json`);
}

/**
 * The inbox items the webhook took (2xx), kept in a file of the state folder and written before a post
 * is counted, so that a new daemon posts no item twice, and posts what a crash left unsent. A webhook
 * set up while items waited in the inbox posts none of those (`fromItem`), as a device that subscribes.
 */
export class WebhookStore {
  private fromItem = 0;
  private posted: number[] = [];

  constructor(
    private readonly path: string,
    /** The newest item in the inbox now: where a webhook with no file yet starts. */
    newestItem: number,
    private readonly log: Logger,
  ) {
    if (!this.load()) {
      this.fromItem = newestItem;
      this.write();
    }
  }

  wasPosted(item: number): boolean {
    return item <= this.fromItem || this.posted.includes(item);
  }

  record(item: number): void {
    if (this.posted.includes(item)) return;
    this.posted = [...this.posted, item].slice(-POSTED_KEPT);
    this.write();
  }

  private write(): void {
    try {
      writePrivateFile(this.path, { version: WEBHOOK_FILE_VERSION, fromItem: this.fromItem, posted: this.posted });
    } catch (error) {
      this.log.error({ file: this.path, err: error }, 'cannot write the webhook file');
    }
  }

  /** True when the file was read; false when there was none or it was set aside. */
  private load(): boolean {
    const read = readPrivateFile(this.path);
    if (read.status === 'absent') return false;
    const stored = read.status === 'read' ? (read.value as { version?: unknown; fromItem?: unknown; posted?: unknown } | null) : null;
    if (stored?.version === WEBHOOK_FILE_VERSION && Number.isSafeInteger(stored.fromItem) && Array.isArray(stored.posted) && stored.posted.every(Number.isSafeInteger)) {
      this.fromItem = stored.fromItem as number;
      this.posted = (stored.posted as number[]).slice(-POSTED_KEPT);
      return true;
    }
    try {
      const movedTo = setAsidePrivateFile(this.path);
      this.log.warn({ file: this.path, movedTo, reason: read.status === 'unusable' ? read.reason : 'wrong_shape' }, 'webhook file unusable: moved aside, posting only new items');
    } catch (error) {
      this.log.error({ file: this.path, err: error }, 'webhook file unusable and cannot be moved aside');
    }
    return false;
  }
}
