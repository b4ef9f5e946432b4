import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import type { Disposable } from '../base/disposable.ts';
import { StartupError } from './startup-error.ts';

/** One daemon per socket: `<socket>.lock` holds the owner's pid, created exclusively. */

function readHolder(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** A live corral process: the pid exists and its command line names corral (guards against pid reuse). */
function isLiveDaemon(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('corral');
  } catch {
    return true; // cannot tell: assume alive rather than steal a running daemon's socket
  }
}

function tryCreate(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

export function acquireLock(lockPath: string, socketPath: string): Disposable {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (tryCreate(lockPath)) {
      return {
        dispose: () => {
          if (readHolder(lockPath) === process.pid) unlinkSync(lockPath);
        },
      };
    }
    const holder = readHolder(lockPath);
    if (holder !== null && isLiveDaemon(holder)) {
      throw new StartupError(
        'daemon_running',
        `a daemon (pid ${holder}) already serves ${socketPath}; stop it with \`kill ${holder}\` or pass another --socket`,
      );
    }
    // The holder is gone: the lock is stale. Remove it only if it still names the same holder.
    if (readHolder(lockPath) === holder) {
      try {
        unlinkSync(lockPath);
      } catch {
        // another starter removed it first; the next attempt decides
      }
    }
  }
  throw new StartupError('daemon_running', `another daemon is starting on ${socketPath}; try again`);
}
