import type { Command } from 'commander';
import { withDaemon } from '../client.ts';
import { globalsOf } from '../globals.ts';
import { printFields, printJson } from '../output.ts';

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
        ['socket', status.socket],
      ]);
    });
}
