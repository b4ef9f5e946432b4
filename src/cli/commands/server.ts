import type { Command } from 'commander';
import { withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { SERVER_MANIFESTS, SERVER_RELOAD_MANIFESTS, type ManifestsResult } from '../../protocol/methods/manifests.ts';
import { printFields, printJson, printTable, printText } from '../output.ts';
import { SERVER_RELOAD_CONFIG } from '../../protocol/methods/server.ts';

export function registerServerCommands(program: Command): void {
  const server = program.command('server').description('the running daemon');

  server
    .command('status')
    .description('version, protocol, pid, uptime and pane count of the daemon')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      // The protocol check already fetched the status: no second call.
      const status = await withDaemon(socket, async (_client, status) => status);
      if (json) return printJson(status);
      printFields([
        ['version', status.version],
        ['protocol', String(status.protocolVersion)],
        ['pid', String(status.pid)],
        ['uptime', `${Math.round(status.uptimeMs / 1000)}s`],
        ['panes', String(status.paneCount)],
        ['connections', String(status.connections)],
        ['waits', String(status.waits)],
        ['socket', status.socket],
      ]);
    });

  server
    .command('bridge')
    .description("join stdin and stdout to the daemon's socket, for a client on another machine (`ssh box corral server bridge`; docs/fleet.md)")
    .action(async (_options, cmd: Command) => {
      const { runBridge } = await import('../bridge.ts');
      await runBridge(globalsOf(cmd).socket);
    });

  server
    .command('manifests')
    .description('agent manifests in use, their versions and sources, and files that failed to load')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      printManifests(await withDaemon(socket, (client) => client.call(SERVER_MANIFESTS, {})), json);
    });

  server
    .command('reload-config')
    .description("read the daemon's config.toml again (as SIGHUP does): say which changed keys took effect and which need a restart; a broken file changes nothing")
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const result = await withDaemon(socket, (client) => client.call(SERVER_RELOAD_CONFIG, {}));
      if (json) return printJson(result);
      const lines = [`config: ${result.file ?? 'none (the embedded defaults)'}`];
      if (result.applied.length === 0 && result.restart.length === 0) lines.push('no key changed');
      if (result.applied.length > 0) lines.push(`took effect: ${result.applied.join(', ')}`);
      if (result.restart.length > 0) lines.push(`need a restart (corral daemon stop, then corral daemon; agents keep running): ${result.restart.join(', ')}`);
      printText(lines.join('\n'));
    });

  server
    .command('reload-manifests')
    .description('reload manifests from every source (as SIGHUP does); a broken file keeps the rules it would replace')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const result = await withDaemon(socket, (client) => client.call(SERVER_RELOAD_MANIFESTS, {}));
      printManifests(result, json);
      if (result.errors.length > 0) {
        const files = [...new Set(result.errors.map((error) => error.file))];
        throw new ManifestsFailed(`${files.length} manifest file(s) failed to load and kept the rules they would replace: ${files.join(', ')}; \`corral manifest lint FILE\` says why`);
      }
    });
}

/** A reload in which a file failed: the CLI exits non-zero, as `manifest lint` does. */
class ManifestsFailed extends Error {
  readonly code = 'manifest_load_failed';
}

function printManifests(result: ManifestsResult, json: boolean): void {
  if (json) return printJson(result);
  printTable(
    ['ID', 'VERSION', 'SOURCE', 'NAME'],
    result.manifests.map((m) => [m.id, m.version, m.source, m.name]),
  );
  for (const error of result.errors) {
    const where = error.line !== undefined ? `${error.file}:${error.line}:${error.column ?? 1}` : error.file;
    process.stderr.write(`manifest error (${error.code}) ${where}: ${error.message}\n`);
  }
}
