import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { ManifestError } from '../detect/errors.ts';

/**
 * Reads a regular file of at most `maxBytes` bytes as UTF-8. The open cannot block (O_NONBLOCK: a
 * FIFO opens at once), the type is checked on the open descriptor (fstat: no race with a rename),
 * and the cap holds while reading, since a device or /proc file reports size 0. A symlink is
 * followed to what it names, which must be a regular file too.
 */
export function readRegularFile(file: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    throw new ManifestError('manifest_read_failed', `${file}: cannot read: ${(error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new ManifestError('manifest_not_regular_file', `${file}: is ${kindOf(stat)}, not a regular file; only regular files are read`);
    }
    const tooLarge = (size: string) => new ManifestError('manifest_limit_exceeded', `${file}: ${size} bytes exceed the manifest size limit of ${maxBytes}`);
    if (stat.size > maxBytes) throw tooLarge(String(stat.size));
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw tooLarge(`more than ${maxBytes}`);
    }
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof ManifestError) throw error;
    throw new ManifestError('manifest_read_failed', `${file}: cannot read: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}
