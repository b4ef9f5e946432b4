import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/**
 * Why a file was not read: it is not there, it is no regular file (a FIFO, a device, a socket, a
 * folder), it is a symbolic link where none is followed, it is over the cap, or the open or a read
 * failed (a permission, an I/O error).
 */
export type RegularFileProblem = 'file_absent' | 'file_not_regular' | 'file_is_symlink' | 'file_too_large' | 'file_unreadable';

/** `message` is `<file>: <problem>`; `problem` alone is for a caller that names the file itself. */
export class RegularFileError extends Error {
  constructor(
    readonly code: RegularFileProblem,
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

export interface RegularFileOptions {
  /** false: a symbolic link in the file's own place is refused (O_NOFOLLOW), not followed. */
  followSymlink: boolean;
  /** What the file is, for the message over the cap: `manifest` gives "the manifest size limit". */
  what?: string;
}

/**
 * Reads a regular file of at most `maxBytes` bytes. The open cannot block (O_NONBLOCK: a FIFO opens
 * at once), the type is checked on the open descriptor (fstat: no race with a rename), and the cap
 * holds while reading, since a device or /proc file reports size 0. The stat comes back with the
 * bytes, for a caller that checks mode or owner on what it read.
 */
export function readRegularFileBytes(file: string, maxBytes: number, options: RegularFileOptions): { bytes: Buffer; stat: Stats } {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (options.followSymlink ? 0 : constants.O_NOFOLLOW);
  let fd: number;
  try {
    fd = openSync(file, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RegularFileError('file_absent', file, `cannot read: ${(error as Error).message}`);
    if (code === 'ELOOP' && !options.followSymlink) {
      throw new RegularFileError('file_is_symlink', file, `is a symbolic link, not a regular file; a link is not followed here`);
    }
    throw new RegularFileError('file_unreadable', file, `cannot read: ${(error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new RegularFileError('file_not_regular', file, `is ${kindOf(stat)}, not a regular file; only regular files are read`);
    }
    const what = options.what ?? 'file';
    const tooLarge = (size: string) => new RegularFileError('file_too_large', file, `${size} bytes exceed the ${what} size limit of ${maxBytes}`);
    if (stat.size > maxBytes) throw tooLarge(String(stat.size));
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(stat.size, 64 * 1024)) + 1);
    let bytes = buffer;
    let length = 0;
    for (;;) {
      if (length === bytes.length) {
        // A file that grew past its stat: room doubles up to the cap (plus the byte that proves it over).
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, bytes.length * 2));
        bytes.copy(grown, 0, 0, length);
        bytes = grown;
      }
      const read = readSync(fd, bytes, length, bytes.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw tooLarge(`more than ${maxBytes}`);
    }
    return { bytes: bytes.subarray(0, length), stat };
  } catch (error) {
    if (error instanceof RegularFileError) throw error;
    throw new RegularFileError('file_unreadable', file, `cannot read: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** What a stat names, for a message: `a FIFO`, `a character device`. */
export function kindOf(stat: Stats): string {
  if (stat.isFile()) return 'a regular file';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a file';
}
