import { Command } from 'commander';
import { registerDaemonCommand } from './commands/daemon.ts';
import { registerPaneCommands } from './commands/pane.ts';
import { registerServerCommands } from './commands/server.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { reportError } from './report.ts';

/**
 * Groups served by the daemon. For these the offline commands (which load the detection engine,
 * ~0.3-0.8 s measured on this machine) are not registered, so that client calls start fast.
 */
const DAEMON_GROUPS = new Set(['daemon', 'server', 'pane']);

/** The command name: the first word that is neither a global option nor its value. */
function commandName(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === '--socket') i += 1;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}

async function buildProgram(argv: string[]): Promise<Command> {
  const program = new Command('corral')
    .description("Owns AI coding agents' terminals on real PTYs and serves them over a Unix socket.")
    .option('--socket <path>', 'daemon socket (default: $CORRAL_SOCKET, $XDG_RUNTIME_DIR/corral/corral.sock, /tmp/corral-$UID/corral.sock)')
    .option('--json', 'print JSON for scripts instead of text for people')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride();
  registerDaemonCommand(program);
  registerServerCommands(program);
  registerPaneCommands(program);
  if (!DAEMON_GROUPS.has(commandName(argv) ?? '')) {
    const { registerOfflineCommands } = await import('./offline.ts');
    registerOfflineCommands(program);
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await (await buildProgram(argv)).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(error, argv.includes('--json'));
  }
}

process.exitCode = await main(process.argv.slice(2));
