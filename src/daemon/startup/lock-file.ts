import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Disposable } from '../../base/disposable.ts';
import { lockFile } from '../../terminal/native.ts';
import { readLockPid } from '../../terminal/pty-host/daemon-lock.ts';
import { StartupError } from './startup-error.ts';
import { isAlive } from '../../terminal/procfs.ts';

/**
 * One daemon per socket: `<socket>.lock` holds the owner's pid, created exclusively, with a record
 * lock held on it while the daemon runs; the pty host accepts only the process the kernel names as
 * that lock's holder (src/terminal/pty-host/daemon-lock.ts).
 */

type LockHolder = 'daemon' | 'unknown' | 'gone';

/**
 * What the pid in a lock is now: `daemon` when it runs `corral daemon` on this socket (its argv:
 * a `corral` entry point, then `daemon`, and `--socket` naming this socket when given), `gone` when
 * it exited or is any other program (the pid was reused), `unknown` when its argv cannot be read.
 */
function lockHolder(pid: number, socketPath: string): LockHolder {
  if (pid === process.pid) return 'gone';
  if (!isAlive(pid)) return 'gone';
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg.length > 0);
  } catch {
    return 'unknown';
  }
  return isDaemonArgv(argv, socketPath) ? 'daemon' : 'gone';
}

function isDaemonArgv(argv: string[], socketPath: string): boolean {
  const entry = argv.findIndex((arg) => ['corral', 'corral.mjs', 'main.ts'].includes(basename(arg)));
  const rest = argv.slice(entry + 1);
  if (entry === -1 || !rest.includes('daemon')) return false;
  const flag = rest.findIndex((arg) => arg === '--socket' || arg.startsWith('--socket='));
  if (flag === -1) return true; // the socket came from its environment: take it to be this one
  const given = rest[flag] === '--socket' ? rest[flag + 1] : rest[flag].slice('--socket='.length);
  return given !== undefined && resolve(given) === resolve(socketPath);
}

/** Creates the lock with this process's pid and takes its record lock; the descriptor it is held by, or null when the file exists. */
function tryCreate(lockPath: string): number | null {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
    if (!lockFile(fd)) throw new StartupError('daemon_running', `another process holds a record lock on ${lockPath}, just created; try again`);
  } catch (error) {
    closeSync(fd);
    unlinkSync(lockPath);
    throw error;
  }
  return fd;
}

export function acquireLock(lockPath: string, socketPath: string): Disposable {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const fd = tryCreate(lockPath);
    if (fd !== null) {
      let held = true;
      return {
        dispose: () => {
          if (!held) return;
          held = false;
          if (readLockPid(lockPath) === process.pid) unlinkSync(lockPath);
          closeSync(fd);
        },
      };
    }
    const holder = readLockPid(lockPath);
    const state = holder === null ? 'gone' : lockHolder(holder, socketPath);
    if (state === 'daemon') {
      throw new StartupError(
        'daemon_running',
        `a daemon (pid ${holder}) already serves ${socketPath}; stop it with \`kill ${holder}\` or pass another --socket`,
      );
    }
    if (state === 'unknown') {
      // Never tell anyone to kill a process we could not identify.
      throw new StartupError(
        'daemon_running',
        `the lock ${lockPath} names pid ${holder}, whose command line cannot be read; if no Corral daemon serves ${socketPath}, remove the lock`,
      );
    }
    // The holder is gone: the lock is stale. Remove it only if it still names the same holder.
    if (readLockPid(lockPath) === holder) {
      try {
        unlinkSync(lockPath);
      } catch {
        // another starter removed it first; the next attempt decides
      }
    }
  }
  throw new StartupError('daemon_running', `another daemon is starting on ${socketPath}; try again`);
}
