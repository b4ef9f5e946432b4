import { createHash } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readRegularFileBytes, RegularFileError } from '../manifest-store/regular-file.ts';

/** Bumped when the file's shape changes; a file of another version is set aside, not read. */
export const STATE_FILE_VERSION = 1;
/** A state file larger than this is refused (a pane is well under 64 KiB). */
const MAX_PRIVATE_FILE_BYTES = 32 * 1024 * 1024;

/** `$XDG_STATE_HOME/corral`, else `~/.local/state/corral`. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'corral');
}

/** One file per daemon socket, so daemons on different sockets never share panes. */
export function registryFilePath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256').update(socketPath).digest('hex').slice(0, 12);
  return join(stateDir(env), `panes-${key}.json`);
}

/** Why a state file cannot be used; each is logged with the file's new name. */
export type UnusableReason = 'not_regular_file' | 'symlink' | 'too_large' | 'unreadable' | 'loose_mode' | 'another_owner' | 'bad_json' | 'wrong_shape';

type PrivateFileRead = { status: 'absent' } | { status: 'read'; value: unknown } | { status: 'unusable'; reason: UnusableReason; detail: string };

const REASONS: Record<Exclude<RegularFileError['code'], 'file_absent'>, UnusableReason> = {
  file_not_regular: 'not_regular_file',
  file_is_symlink: 'symlink',
  file_too_large: 'too_large',
  file_unreadable: 'unreadable',
};

/**
 * Reads a private file (the pane registry, the inbox) as the manifests are read (regular-file.ts):
 * a regular file only, never a link (the daemon writes it by rename, so a link there was put by
 * someone else), opened without blocking and read up to MAX_PRIVATE_FILE_BYTES. It must be this
 * user's own and readable by no one else, as the daemon writes it, since it holds commands a respawn runs.
 */
export function readPrivateFile(path: string): PrivateFileRead {
  let bytes: Buffer;
  let mode: number;
  let uid: number;
  try {
    ({ bytes, stat: { mode, uid } } = readRegularFileBytes(path, MAX_PRIVATE_FILE_BYTES, { followSymlink: false, what: 'state file' }));
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    if (error.code === 'file_absent') return { status: 'absent' };
    return { status: 'unusable', reason: REASONS[error.code], detail: error.message };
  }
  const owner = process.getuid?.() ?? uid;
  if (uid !== owner) return { status: 'unusable', reason: 'another_owner', detail: `${path}: is owned by uid ${uid}, not by this daemon's uid ${owner}` };
  if ((mode & 0o077) !== 0) {
    return { status: 'unusable', reason: 'loose_mode', detail: `${path}: has mode ${(mode & 0o777).toString(8).padStart(4, '0')}; the daemon writes it 0600, readable by its user only` };
  }
  try {
    return { status: 'read', value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (error) {
    return { status: 'unusable', reason: 'bad_json', detail: `${path}: is not JSON: ${(error as Error).message}` };
  }
}

/**
 * Moves an unusable state file out of the way, under its name with `.unusable-<UTC time>` added (a
 * FIFO or link is moved itself, not what it names), so that the next write does not replace what a
 * person may want to look at. A name already taken gets a counter: nothing is overwritten.
 */
export function setAsidePrivateFile(path: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; ; attempt += 1) {
    const aside = `${path}.unusable-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    if (exists(aside)) continue;
    renameSync(path, aside);
    return aside;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Replaces the file atomically: a reader (or the next daemon after a crash or power loss) sees the
 * old contents or the new, never a mix. Folder 0700, file 0600; the temporary file is made anew
 * (never a link or a file left with another mode).
 */
export function writePrivateFile(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, JSON.stringify(value));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}
