import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote, type IntegratedLaunch, type IntegrationContext, type Launch } from './launch.ts';
import { hookEntries } from './hook-entries.ts';
import { isRootOwnedPath } from './root-owned.ts';
import { readSettingsFile } from './settings-file.ts';

/**
 * Gemini CLI and Qwen Code: an environment variable names the system-defaults settings file, the
 * lowest layer, so the user's own settings still win. Corral writes a copy of the file the agent
 * would have read (the variable's, else the default path) with its hooks added per event.
 * Gemini CLI skips such a file unless root owns it and every folder above it, and only root can write
 * them (`root_owned`): then a daemon that cannot place it so adds nothing and says why.
 */
export function settingsEnv(launch: Launch, context: IntegrationContext): IntegratedLaunch {
  const variable = context.spec.target;
  const existingPath = launch.env[variable] ?? context.userEnv[variable] ?? context.spec.defaultPath;
  const base = existingPath ? readJsonObject(existingPath) : {};
  const command = context.hookArgv.map(shellQuote).join(' ');
  const hooks = { ...(isObject(base.hooks) ? base.hooks : {}) } as Record<string, unknown>;
  for (const [event, ours] of Object.entries(hookEntries(context.spec, command))) {
    hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), ...ours];
  }
  const path = join(context.dir, 'system-defaults.json');
  writeFileSync(path, `${JSON.stringify({ ...base, hooks }, null, 2)}\n`, { mode: 0o600 });
  if (context.spec.rootOwned && !isRootOwnedPath(path)) {
    throw new Error(
      `${variable} is read only from a file that root owns in folders only root can write, and ${path} is not one ` +
        `(the daemon runs as uid ${process.getuid?.()}); install the hooks in the user's settings instead: corral integration install ${context.spec.hook}`,
    );
  }
  return { ...launch, env: { ...launch.env, [variable]: path }, files: [path], summary: `${variable} with ${context.spec.events.length} hooks` };
}

/** The file's JSON object; an empty one when it is absent, not an object, or no regular file (a FIFO must not hold the spawn). */
function readJsonObject(path: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readSettingsFile(path)?.toString('utf8') ?? '{}');
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
