import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { MAX_SOCKET_PATH_BYTES } from '../../protocol/socket-path.ts';
import { StartupError } from './startup-error.ts';

/** The socket's place on disk: its length, its private folder, and a stale file left by a dead daemon. */

export function checkSocketPathLength(path: string): void {
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new StartupError(
      'socket_path_too_long',
      `socket path is ${bytes} bytes, over the Unix limit of ${MAX_SOCKET_PATH_BYTES}: ${path}; ` +
        'pass a shorter --socket or set CORRAL_SOCKET',
    );
  }
}

/** Creates the folder 0700 if missing; refuses one owned by another user or open to group or others. */
export function prepareSocketDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StartupError('socket_dir_unusable', `cannot create socket folder ${dir}: ${(error as Error).message}`);
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new StartupError('socket_dir_insecure', `socket folder ${dir} is not a directory (a symlink?); remove it or pass another --socket`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new StartupError('socket_dir_insecure', `socket folder ${dir} is owned by uid ${stat.uid}, not ${uid}; pass a folder of your own with --socket`);
  }
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new StartupError(
      'socket_dir_insecure',
      `socket folder ${dir} has mode ${mode.toString(8).padStart(4, '0')}, open to other users; run \`chmod 700 ${dir}\` or pass another --socket`,
    );
  }
}

function canConnect(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Removes a socket file nobody answers on. Called while holding the lock, so no live daemon owns it. */
export async function removeStaleSocket(path: string): Promise<boolean> {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return false;
  }
  if (!stat.isSocket()) {
    throw new StartupError('socket_not_a_socket', `${path} exists and is not a socket; refusing to remove it, pass another --socket`);
  }
  if (await canConnect(path)) {
    throw new StartupError('daemon_running', `another process is serving ${path} (a daemon without a lock file?); stop it or pass another --socket`);
  }
  unlinkSync(path);
  return true;
}

export function restrictSocket(path: string): void {
  chmodSync(path, 0o600);
}
