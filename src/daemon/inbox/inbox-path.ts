import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { stateDir } from '../private-file.ts';

/** One inbox per daemon socket, beside its pane state file. */
export function inboxFilePath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), `inbox-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}.json`);
}
