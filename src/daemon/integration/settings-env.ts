import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote, type IntegratedLaunch, type IntegrationContext, type Launch } from './launch.ts';

/**
 * Gemini CLI and Qwen Code: an environment variable names the system-defaults settings file, the
 * lowest layer, so the user's own settings still win. Corral writes a copy of the file the agent
 * would have read (the variable's, else the default path) with its hooks added per event.
 */
export function settingsEnv(launch: Launch, context: IntegrationContext): IntegratedLaunch {
  const variable = context.spec.target;
  const existingPath = launch.env[variable] ?? context.userEnv[variable] ?? context.spec.defaultPath;
  const base = existingPath ? readJsonObject(existingPath) : {};
  const command = context.hookArgv.map(shellQuote).join(' ');
  const hooks = { ...(isObject(base.hooks) ? base.hooks : {}) } as Record<string, unknown>;
  for (const event of context.spec.events) {
    const ours = { hooks: [{ type: 'command', command, name: `corral-${event}`, timeout: 5000 }] };
    hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), ours];
  }
  const path = join(context.dir, 'system-defaults.json');
  writeFileSync(path, `${JSON.stringify({ ...base, hooks }, null, 2)}\n`, { mode: 0o600 });
  return { ...launch, env: { ...launch.env, [variable]: path }, files: [path], summary: `${variable} with ${context.spec.events.length} hooks` };
}

function readJsonObject(path: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
