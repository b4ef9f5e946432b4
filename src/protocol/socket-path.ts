import { join, resolve } from 'node:path';

/** sun_path holds 108 bytes on Linux, including the terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = 107;

/**
 * Where the daemon listens and the CLI connects: the flag, else $CORRAL_SOCKET, else
 * $XDG_RUNTIME_DIR/corral/corral.sock, else /tmp/corral-$UID/corral.sock.
 */
export function resolveSocketPath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  uid: number = process.getuid?.() ?? 0,
): string {
  if (flag) return resolve(flag);
  if (env.CORRAL_SOCKET) return resolve(env.CORRAL_SOCKET);
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'corral', 'corral.sock');
  return join('/tmp', `corral-${uid}`, 'corral.sock');
}
