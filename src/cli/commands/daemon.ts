import { Option, type Command } from 'commander';
import type { LogLevel } from '../../daemon/logger.ts';

// Kept here rather than imported so that client commands never load the logger.
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const satisfies readonly LogLevel[];

export function registerDaemonCommand(program: Command): void {
  program
    .command('daemon')
    .description('run the daemon in the foreground (JSON logs on stderr); stops on SIGTERM or SIGINT')
    .addOption(new Option('--log-level <level>', 'log level').choices(LEVELS).default('info'))
    .option('--config <path>', 'config file (default: $XDG_CONFIG_HOME/corral/config.toml; see docs/config.md)')
    .action(async (options: { logLevel: (typeof LEVELS)[number]; config?: string }, cmd: Command) => {
      const socket = (cmd.optsWithGlobals() as { socket?: string }).socket;
      // Loaded only here so that client commands never pay for the daemon and node-pty.
      const [{ runDaemon }, { spawnTerminalPane }] = await Promise.all([
        import('../../daemon/main.ts'),
        import('../../terminal/pane.ts'),
      ]);
      const code = await runDaemon({
        ...(socket !== undefined ? { socket } : {}),
        logLevel: options.logLevel,
        ...(options.config !== undefined ? { config: options.config } : {}),
        spawnTerminal: spawnTerminalPane,
      });
      process.exit(code);
    });
}
