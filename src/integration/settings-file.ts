import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readRegularFileBytes, RegularFileError } from '../manifest-store/regular-file.ts';

/** An agent's settings file larger than this is not one (Claude Code's are a few KiB). */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/** Links followed from a settings file to what it names, at most (the kernel's own limit). */
const MAX_LINK_HOPS = 40;

/**
 * An agent's settings file as bytes, or null when there is none. It is read as manifests are
 * (manifest-store/regular-file.ts): a symlink is followed to what it names, which must be a regular
 * file; a FIFO or device is refused without blocking, and no more than MAX_SETTINGS_BYTES is read.
 * Throws RegularFileError for anything else.
 */
export function readSettingsFile(file: string): Buffer | null {
  try {
    return readRegularFileBytes(file, MAX_SETTINGS_BYTES, { followSymlink: true, what: 'settings file' }).bytes;
  } catch (error) {
    if (error instanceof RegularFileError && error.code === 'file_absent') return null;
    throw error;
  }
}

/**
 * The file a write to `file` must replace so that the file stays what it is: a symlink's final
 * target (which may not exist yet), else `file` itself.
 */
export function writeTargetOf(file: string): string {
  let path = file;
  for (let hops = 0; hops < MAX_LINK_HOPS; hops += 1) {
    let isLink: boolean;
    try {
      isLink = lstatSync(path).isSymbolicLink();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path;
      throw error;
    }
    if (!isLink) return path;
    path = resolve(dirname(path), readlinkSync(path));
  }
  throw new RegularFileError('file_unreadable', file, `more than ${MAX_LINK_HOPS} symbolic links lead from it`);
}

/**
 * Replaces a file whole (a reader never sees half of it), keeping its mode (0600 for a new one).
 * `throughLinks`: a symlink at `file` stays a link and what it names gets the content; otherwise
 * whatever is at `file` is replaced by a regular file. The temporary file is made anew beside the
 * target, never opened through a link.
 */
export function writeFileAtomically(file: string, content: string | Buffer, options: { throughLinks: boolean }): void {
  const target = options.throughLinks ? writeTargetOf(file) : file;
  mkdirSync(dirname(target), { recursive: true });
  const mode = modeOf(target) ?? 0o600;
  const temporary = `${target}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    fchmodSync(fd, mode); // the exact mode, whatever the umask
    writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, target);
}

function modeOf(path: string): number | null {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.mode & 0o777 : null;
  } catch {
    return null;
  }
}
