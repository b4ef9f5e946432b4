import { Command } from 'commander';
import { registerDaemonCommand } from './commands/daemon.ts';
import { registerPaneCommands } from './commands/pane.ts';
import { registerServerCommands } from './commands/server.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { registerOfflineCommands } from './offline.ts';
import { reportError } from './report.ts';

function buildProgram(): Command {
  const program = new Command('corral')
    .description('Owns AI coding agents\' terminals on real PTYs and serves them over a Unix socket.')
    .option('--socket <path>', 'daemon socket (default: $CORRAL_SOCKET, $XDG_RUNTIME_DIR/corral/corral.sock, /tmp/corral-$UID/corral.sock)')
    .option('--json', 'print JSON for scripts instead of text for people')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride();
  registerDaemonCommand(program);
  registerServerCommands(program);
  registerPaneCommands(program);
  registerOfflineCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(error, argv.includes('--json'));
  }
}

process.exitCode = await main(process.argv.slice(2));
