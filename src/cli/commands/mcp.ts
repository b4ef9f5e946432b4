import type { Command } from 'commander';
import { globalsOf } from '../globals.ts';

export function registerMcpCommand(program: Command, clientVersion: string): void {
  program
    .command('mcp')
    .description('run a Model Context Protocol server on stdin/stdout for an orchestrating agent (docs/mcp.md)')
    .action(async (_options, cmd: Command) => {
      const { socket } = globalsOf(cmd);
      // Loaded only here: the SDK is not needed by any other command.
      const { runMcpServer } = await import('../../mcp/server.ts');
      await runMcpServer({ socket, version: clientVersion });
    });
}
