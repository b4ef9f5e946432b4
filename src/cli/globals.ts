import type { Command } from 'commander';
import type { DaemonAddress } from '../client/index.ts';
import { resolveSocketPath } from '../protocol/socket-path.ts';

export interface GlobalOptions {
  /** The local daemon's socket (--socket, $CORRAL_SOCKET or the default). */
  socket: string;
  /** The daemon the command's targets are on: the local socket, or the host a `TARGET@HOST` named (host-targets.ts). */
  daemon: DaemonAddress;
  json: boolean;
}

/** Options every command accepts, before or after its name. */
export function globalsOf(command: Command): GlobalOptions {
  const options = command.optsWithGlobals() as { socket?: string; json?: boolean; targetHost?: DaemonAddress };
  const socket = resolveSocketPath(options.socket);
  return { socket, daemon: options.targetHost ?? socket, json: options.json === true };
}
