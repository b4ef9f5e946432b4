import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { lockOwner } from '../native.ts';

/**
 * The daemon's lock, as both the daemon (src/daemon/startup/lock-file.ts) and the pty host read it:
 * `<socket>.lock`, created exclusively, holds the daemon's pid, and the daemon keeps a kernel record
 * lock on it for as long as it runs. The pid in the file can be written by any process of the user;
 * the record lock's holder is named by the kernel and ends with its process.
 */
export function lockFilePath(socketPath: string): string {
  return `${socketPath}.lock`;
}

/** A pid is a few digits: more is not a lock this code wrote. */
const MAX_LOCK_BYTES = 32;

/**
 * The pid a lock file names, or null (missing, not a regular file, or not a pid). Opening and
 * closing the file drops a record lock this process holds on it: the daemon reads its own lock
 * only before taking it and when letting it go.
 */
export function readLockPid(lockPath: string): number | null {
  return withLockFile(lockPath, (fd) => namedPid(fd));
}

/**
 * The pid of the process that holds the daemon's lock at `lockPath`: the one the file names, when
 * the kernel says that same process holds the file's record lock; otherwise null.
 */
export function lockHoldingPid(lockPath: string): number | null {
  return withLockFile(lockPath, (fd) => {
    const owner = lockOwner(fd);
    return owner > 0 && owner === namedPid(fd) ? owner : null;
  });
}

function withLockFile(lockPath: string, read: (fd: number) => number | null): number | null {
  let fd: number;
  try {
    // Never a FIFO's open that blocks, nor a link followed to a device.
    fd = openSync(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    return fstatSync(fd).isFile() ? read(fd) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function namedPid(fd: number): number | null {
  const buffer = Buffer.alloc(MAX_LOCK_BYTES);
  const length = readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0);
  const text = buffer.toString('utf8', 0, length).trim();
  if (!/^\d{1,10}$/.test(text)) return null;
  const pid = Number(text);
  return pid > 0 && pid <= 0x7fffffff ? pid : null;
}
