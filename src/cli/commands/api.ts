import type { Command } from 'commander';
import { withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { RPC_DISCOVER } from '../../protocol/methods/discover.ts';
import { openRpcDocument } from '../../protocol/openrpc/document.ts';
import { printJson } from '../output.ts';

export function registerApiCommands(program: Command, clientVersion: string): void {
  const api = program.command('api').description('the protocol as a published contract');

  api
    .command('schema')
    .description("print the OpenRPC document of the protocol this corral speaks (--daemon: the running daemon's, from rpc.discover)")
    .option('--daemon', "ask the running daemon instead of printing this client's own document")
    .action(async (options: { daemon?: boolean }, cmd: Command) => {
      if (!options.daemon) return printJson(openRpcDocument(clientVersion));
      const { socket } = globalsOf(cmd);
      printJson(await withDaemon(socket, (client) => client.call(RPC_DISCOVER, {})));
    });
}
