import { basename } from 'node:path';
import type { ManifestSpec } from '../../detect/manifest-spec.ts';
import { notifyConfig } from './notify-config.ts';
import { pluginDir } from './plugin-dir.ts';
import { settingsEnv } from './settings-env.ts';
import { settingsFlag } from './settings-flag.ts';
import type { IntegratedLaunch, IntegrationContext, Launch } from './launch.ts';

/** The manifest whose agent this launch starts, by the program's name (`claude`, `/usr/bin/gemini`). */
export function launchedAgent(command: string, manifests: readonly ManifestSpec[]): ManifestSpec | null {
  const name = basename(command);
  return manifests.find((spec) => spec.integration !== null && spec.identity.executables.includes(name)) ?? null;
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
