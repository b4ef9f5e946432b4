import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Bumped when the file's shape changes; a file of another version is set aside, not read. */
export const STATE_FILE_VERSION = 1;
/** A state file larger than this is refused (a pane is well under 64 KiB). */
export const MAX_STATE_FILE_BYTES = 32 * 1024 * 1024;

/** `$XDG_STATE_HOME/corral`, else `~/.local/state/corral`. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'corral');
}

/** One file per daemon socket, so daemons on different sockets never share panes. */
export function stateFilePath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256').update(socketPath).digest('hex').slice(0, 12);
  return join(stateDir(env), `panes-${key}.json`);
}

/** Reads a JSON state file; null when absent. Throws on a file that cannot be read as JSON. */
export function readStateFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (text.length > MAX_STATE_FILE_BYTES) throw new Error(`state file ${path} is over ${MAX_STATE_FILE_BYTES} bytes`);
  return JSON.parse(text) as unknown;
}

/**
 * Replaces the file atomically: a reader (or the next daemon after a crash or power loss) sees the
 * old contents or the new, never a mix. Folder 0700, file 0600.
 */
export function writeStateFile(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(value));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}
