import type { Command } from 'commander';
import { resolveSocketPath } from '../protocol/socket-path.ts';

export interface GlobalOptions {
  socket: string;
  json: boolean;
}

/** Options every command accepts, before or after its name. */
export function globalsOf(command: Command): GlobalOptions {
  const options = command.optsWithGlobals() as { socket?: string; json?: boolean };
  return { socket: resolveSocketPath(options.socket), json: options.json === true };
}
