import { readSync } from 'node:fs';

/**
 * The text of an open regular file of `size` bytes (its fstat's), read whole: what the config and
 * the last-seen file each read once they have checked what the descriptor is.
 */
export function readOpenFile(fd: number, size: number): string {
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read).toString('utf8');
}
