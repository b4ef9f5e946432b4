import { basename } from 'node:path';
import type { ManifestSpec } from '../detect/manifest-spec.ts';
import { notifyConfig } from './notify-config.ts';
import { pluginDir } from './plugin-dir.ts';
import { settingsEnv } from './settings-env.ts';
import { settingsFlag } from './settings-flag.ts';
import type { IntegratedLaunch, IntegrationContext, Launch } from './launch.ts';
import { throughWrappers } from './wrapper.ts';

/**
 * The manifest whose agent this launch starts, by the program's name (`claude`, `/usr/bin/gemini`) or
 * the npm package its path lies in (`/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js`).
 */
export function launchedAgent(command: string, manifests: readonly ManifestSpec[]): ManifestSpec | null {
  const name = basename(command);
  const inPackage = (pkg: string) => command.includes(`node_modules/${pkg}/`);
  return manifests.find((spec) => spec.integration !== null && (spec.identity.executables.includes(name) || spec.identity.packages.some(inPackage))) ?? null;
}

/** The agent's own launch inside `launch`, and how to put it back changed into the wrappers around it. */
export interface AgentLaunch {
  spec: ManifestSpec;
  inner: Launch;
  wrap(inner: Launch): Launch;
}

/** The agent a launch starts, as its own command or through up to MAX_WRAPPERS wrappers (wrapper.ts). */
export function agentLaunch(launch: Launch, manifests: readonly ManifestSpec[]): AgentLaunch | null {
  const found = throughWrappers(launch, (inner) => launchedAgent(inner.command, manifests) !== null);
  const spec = found && launchedAgent(found.inner.command, manifests);
  return found && spec ? { spec, ...found } : null;
}

/** Adds the agent's hooks to one launch, by its manifest's mechanism; null leaves the launch as it was. */
export function integrate(launch: Launch, context: IntegrationContext): IntegratedLaunch | null {
  switch (context.spec.mechanism) {
    case 'settings_flag':
      return settingsFlag(launch, context);
    case 'settings_env':
      return settingsEnv(launch, context);
    case 'notify_config':
      return notifyConfig(launch, context);
    case 'plugin_dir':
      return pluginDir(launch, context);
  }
}
