import type { Command } from 'commander';
import { installFromCatalog } from '../../detect/catalog.ts';
import { defaultCatalogDir } from '../../detect/manifest-set.ts';
import { printJson, printText } from '../output.ts';
import { CheckFailed } from './conformance.ts';
import { offlineManifests } from './manifest-source.ts';

/** `corral server update-manifests --from FILE_OR_URL`: installs newer manifests; the daemon picks them up on SIGHUP. */
export function registerUpdateManifestsCommand(program: Command): void {
  const server = program.commands.find((command) => command.name() === 'server') ?? program.command('server').description('the daemon');
  if (server.commands.some((command) => command.name() === 'update-manifests')) return;
  server
    .command('update-manifests')
    .description('install newer detection manifests from a catalog (a folder, a TOML file or a file:// URL) after full validation')
    .requiredOption('--from <catalog>', 'the catalog: folder, .toml file or file:// URL')
    .option('--into <dir>', 'the catalog folder the daemon reads', defaultCatalogDir())
    .option('--json', 'print JSON')
    .action(function (this: Command) {
      const flags = this.optsWithGlobals() as { from: string; into: string; json?: boolean };
      const bundled = offlineManifests(true).all();
      const result = installFromCatalog(flags.from, flags.into, { bundled });
      if (flags.json) printJson({ ...result, target: flags.into });
      else {
        const lines = result.outcomes.map((o) => `${o.decision.padEnd(28)} ${o.id} ${o.version}${o.previous ? ` (was ${o.previous})` : ''}`);
        for (const error of result.errors) lines.push(`rejected                     ${error.message}`);
        const installed = result.outcomes.filter((o) => o.decision === 'installed').length;
        lines.push(`${installed} installed into ${flags.into}${installed ? '; send SIGHUP to the daemon or run `corral server reload-manifests` to use them' : ''}`);
        printText(lines.join('\n'));
      }
      const refused = result.outcomes.filter((o) => o.decision.startsWith('refused')).length;
      if (result.errors.length || refused) throw new CheckFailed(`${result.errors.length} invalid and ${refused} refused catalog manifests (nothing of theirs was installed)`);
    });
}
