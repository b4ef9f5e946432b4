import type { Command } from 'commander';
import { corralCommand } from '../../integration/corral-command.ts';
import { shellQuote } from '../../integration/launch.ts';
import { ManifestSet } from '../../manifest-store/manifest-set.ts';
import { printJson, printText } from '../output.ts';
import {
  IntegrationError,
  installIntegration,
  integrationStatus,
  uninstallIntegration,
  userFileOf,
  type IntegrationStatus,
} from './integration-files.ts';
import { otherScopesHolding } from './integration-scopes.ts';

const SAY: Record<string, string> = {
  installed: 'installed',
  already_installed: 'already installed, nothing changed',
  restored: 'removed: the file is back as it was before install, byte for byte',
  removed: "removed Corral's hooks only: the file changed since install (the original stays in the backup)",
  not_installed: 'not installed, nothing changed',
};

/** `corral integration install|uninstall|status <agent>`: hooks for agents started outside Corral. */
export function registerIntegrationCommand(program: Command): void {
  const integration = program
    .command('integration')
    .description("an agent's hooks in the user's own settings, for agents started outside Corral (docs/reporting.md)");
  const run = (verb: 'install' | 'uninstall' | 'status', description: string) =>
    integration
      .command(`${verb} <agent>`)
      .description(description)
      .option('--file <path>', 'the settings file to edit instead of the agent\'s own')
      .option('--json', 'print JSON')
      .action(function (this: Command, agent: string) {
        const flags = this.optsWithGlobals() as { file?: string; json?: boolean };
        const manifest = new ManifestSet().all().find((m) => m.spec.id === agent || m.spec.aliases.includes(agent));
        const spec = manifest?.spec.integration;
        if (!manifest || !spec) {
          const known = new ManifestSet().all().filter((m) => m.spec.integration?.userFile).map((m) => m.spec.id);
          throw new IntegrationError('integration_unsupported', `${agent} has no integration to install; agents that have one: ${known.join(', ')}`);
        }
        const id = manifest.spec.id;
        const file = flags.file ?? userFileOf(id, spec, process.env);
        const result: IntegrationStatus & { result?: string; alsoIn?: string[] } =
          verb === 'install'
            ? installIntegration(id, spec, file, [...corralCommand(), 'report', '--hook', spec.hook])
            : verb === 'uninstall'
              ? uninstallIntegration(id, spec, file)
              : integrationStatus(id, spec, file);
        // Hooks in two of the agent's files run twice: say so where it is cheap to see (docs/reporting.md).
        if (verb !== 'uninstall' && result.installed) result.alsoIn = otherScopesHolding(id, spec, file, process.env, process.cwd());
        if (flags.json) printJson(result);
        else if (result.result) printText(`${id}: ${SAY[result.result]} (${file})`);
        else printText(`${id}: ${result.installed ? 'installed' : 'not installed'} in ${file}${result.backup ? `; backup ${result.backup}` : ''}`);
        if (!flags.json) {
          for (const other of result.alsoIn ?? []) {
            printText(
              `${id}: Corral's hooks are also in ${other}: ${id} runs both, so each of its hook events reaches Corral twice (a permission request is still decided once); to keep one, run: corral integration uninstall ${id} --file ${shellQuote(other)}`,
            );
          }
        }
      });
  run('install', "add Corral's hooks to the agent's user settings (idempotent; the file is backed up first)");
  run('uninstall', 'take them out again: the file is restored byte for byte unless it changed since');
  run('status', "whether the agent's user settings hold Corral's hooks");
}
