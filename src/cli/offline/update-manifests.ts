import type { Command } from 'commander';
import { installFromCatalog, type CatalogInstallResult } from '../../manifest-store/catalog.ts';
import { defaultCatalogDir } from '../../manifest-store/manifest-set.ts';
import { printJson, printText } from '../output.ts';
import { installFromRemoteCatalog, isRemoteCatalog } from '../../manifest-store/catalog-download.ts';
import { CheckFailed } from './conformance.ts';
import { offlineManifests } from './manifest-source.ts';

/** `corral server update-manifests --from FILE_OR_URL`: installs newer manifests; the daemon picks them up on SIGHUP. */
export function registerUpdateManifestsCommand(program: Command): void {
  const server = program.commands.find((command) => command.name() === 'server') ?? program.command('server').description('the daemon');
  if (server.commands.some((command) => command.name() === 'update-manifests')) return;
  server
    .command('update-manifests')
    .description('install newer detection manifests from a catalog (a folder, a TOML file, a file:// URL or an http(s) URL) after full validation')
    .requiredOption('--from <catalog>', 'the catalog: folder, .toml file, file:// URL, or http(s) URL of a .toml file or a JSON index')
    .option('--into <dir>', 'the catalog folder the daemon reads', defaultCatalogDir())
    .option('--json', 'print JSON')
    .action(async function (this: Command) {
      const flags = this.optsWithGlobals() as { from: string; into: string; json?: boolean };
      const bundled = offlineManifests(true).all();
      const remote = isRemoteCatalog(flags.from);
      const result: CatalogInstallResult & { catalog_version?: string | null; tls?: boolean } = remote
        ? await installFromRemoteCatalog(flags.from, flags.into, { bundled })
        : installFromCatalog(flags.from, flags.into, { bundled });
      if (remote && !result.tls) {
        // On stderr, so a script reading --json still sees it; the person can switch to https.
        process.stderr.write(`corral: warning: the catalog ${flags.from} was fetched without TLS (plain http); anyone on the network path could have changed its manifests. Use an https:// URL where the publisher offers one.\n`);
      }
      if (flags.json) printJson({ ...result, target: flags.into });
      else {
        const lines = result.catalog_version ? [`catalog ${flags.from} version ${result.catalog_version}`] : [];
        lines.push(...result.outcomes.map((o) => `${o.decision.padEnd(28)} ${o.id} ${o.version}${o.previous ? ` (was ${o.previous})` : ''}`));
        for (const error of result.errors) lines.push(`rejected                     ${error.message}`);
        const installed = result.outcomes.filter((o) => o.decision === 'installed').length;
        lines.push(`${installed} installed into ${flags.into}${installed ? '; send SIGHUP to the daemon or run `corral server reload-manifests` to use them' : ''}`);
        printText(lines.join('\n'));
      }
      const refused = result.outcomes.filter((o) => o.decision.startsWith('refused')).length;
      if (result.errors.length || refused) throw new CheckFailed(`${result.errors.length} invalid or unreadable and ${refused} refused catalog manifests (nothing of theirs was installed)`);
    });
}
