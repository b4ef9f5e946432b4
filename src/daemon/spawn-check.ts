import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { CorralError } from '../protocol/errors.ts';

/**
 * Checks before a spawn what node-pty would only report as a child exiting with code 1:
 * a missing working folder or a command that is not found or not executable.
 */
export function checkSpawnable(command: string, cwd: string, env: Record<string, string>): void {
  let cwdStat;
  try {
    cwdStat = statSync(cwd);
  } catch {
    throw new CorralError('spawn_failed', `working folder ${cwd} does not exist; pass an existing --cwd`, { cwd });
  }
  if (!cwdStat.isDirectory()) {
    throw new CorralError('spawn_failed', `working folder ${cwd} is not a directory; pass an existing --cwd`, { cwd });
  }
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(resolve(cwd, dir), command));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return;
    } catch {
      // not this one
    }
  }
  const where = command.includes('/') ? 'or not executable' : "in the pane's PATH";
  throw new CorralError('spawn_failed', `command "${command}" not found ${where}; check the name or pass --env PATH=...`, {
    command,
  });
}
