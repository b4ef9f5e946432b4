import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { IntegrationSpec } from '../../detect/manifest-spec.ts';
import { integrationStatus, IntegrationError, userFileOf } from './integration-files.ts';

/**
 * The agent's other settings files that already hold Corral's hooks, beside `file`: the user's own file,
 * and a project's (the user file's path below `~` in the folder the command runs in and each folder
 * above it up to the repository's root, and `settings.local.json` beside a `settings.json`, as Claude
 * Code reads). The agent runs the hooks of every file it reads, so each event reaches Corral once per
 * file (docs/policy.md, the hook path). A file that cannot be read is left out: this only informs.
 */
export function otherScopesHolding(agent: string, spec: IntegrationSpec, file: string, env: NodeJS.ProcessEnv, cwd: string): string[] {
  const self = resolve(cwd, file);
  const candidates = new Set<string>();
  try {
    candidates.add(resolve(userFileOf(agent, spec, env)));
  } catch {
    // no user file to look at (no HOME)
  }
  for (const candidate of projectFiles(spec, env, cwd)) candidates.add(candidate);
  candidates.delete(self);
  return [...candidates].filter((candidate) => {
    try {
      return integrationStatus(agent, spec, candidate).installed;
    } catch (error) {
      if (error instanceof IntegrationError) return false;
      throw error;
    }
  });
}

/** The project settings files the agent would read when started in `cwd`. */
function projectFiles(spec: IntegrationSpec, env: NodeJS.ProcessEnv, cwd: string): string[] {
  if (spec.userFile === null || !spec.userFile.startsWith('~/')) return [];
  const below = spec.userFile.slice(2);
  const names = below.endsWith('settings.json') ? [below, below.replace(/settings\.json$/, 'settings.local.json')] : [below];
  const home = env.HOME ? resolve(env.HOME) : null;
  const files: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (dir === home) break; // the user's own folder: its file is the user's scope
    files.push(...names.map((name) => join(dir, name)));
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) break;
  }
  return files;
}
