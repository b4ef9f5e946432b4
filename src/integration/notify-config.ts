import { join } from 'node:path';
import { parse } from 'smol-toml';
import type { IntegratedLaunch, IntegrationContext, Launch } from './launch.ts';
import { readSettingsFile } from './settings-file.ts';

/**
 * Codex: `-c notify=[...]` overrides the notify program for this launch. Corral's hook runs first and
 * then the user's own notify from $CODEX_HOME/config.toml (default ~/.codex), with the same payload.
 */
export function notifyConfig(launch: Launch, context: IntegrationContext): IntegratedLaunch {
  const key = context.spec.target;
  const home = launch.env.CODEX_HOME ?? context.userEnv.CODEX_HOME ?? join(launch.env.HOME ?? context.userEnv.HOME ?? '/', '.codex');
  const users = userNotify(join(home, 'config.toml'), key);
  const argv = [...context.hookArgv, ...(users ? ['--chain', JSON.stringify(users)] : [])];
  // TOML basic strings take JSON's escapes, so a JSON array of strings is a TOML array.
  return { ...launch, args: ['-c', `${key}=${JSON.stringify(argv)}`, ...launch.args], files: [], summary: `-c ${key}${users ? ' chained to the user\'s notify' : ''}` };
}

/** The user's own notify; none when the file is absent, not TOML, or no regular file (a FIFO must not hold the spawn). */
function userNotify(path: string, key: string): string[] | null {
  try {
    const value = parse(readSettingsFile(path)?.toString('utf8') ?? '')[key];
    return Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string') ? (value as string[]) : null;
  } catch {
    return null;
  }
}
