import { Option, type Command } from 'commander';
import type { LogLevel } from '../../daemon/logger.ts';
import { SERVER_STOP } from '../../protocol/methods/server.ts';
import { withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { printJson } from '../output.ts';

// Kept here rather than imported so that client commands never load the logger.
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const satisfies readonly LogLevel[];

/** Asks the daemon to stop; with `panes` every pane ends too (SIGHUP, then SIGKILL) and the pty host exits. */
async function stopDaemon(cmd: Command, panes: boolean): Promise<void> {
  const { socket, json } = globalsOf(cmd);
  const result = await withDaemon(socket, (client) => client.call(SERVER_STOP, { panes }));
  if (json) return printJson(result);
  process.stdout.write(
    panes ? `daemon stopping; ending ${result.panes} pane(s)\n` : `daemon stopping; ${result.panes} pane(s) keep running in the pty host\n`,
  );
}

export function registerDaemonCommand(program: Command): void {
  program
    .command('shutdown')
    .description('stop the daemon and end every pane (SIGHUP, then SIGKILL after the grace time) and the pty host')
    .action(async (_options, cmd: Command) => stopDaemon(cmd, true));

  const daemon = program
    .command('daemon')
    .description('run the daemon in the foreground (JSON logs on stderr); SIGTERM or SIGINT stop it and leave the agents running in the pty host')
    .addOption(new Option('--log-level <level>', 'log level').choices(LEVELS).default('info'))
    .option('--config <path>', 'config file (default: $XDG_CONFIG_HOME/corral/config.toml; see docs/config.md)')
    // Commander lists a subcommand without its options: name stop's one option here.
    .addHelpText(
      'after',
      '\nStopping it:\n  corral daemon stop          stop the daemon; agents keep running in the pty host for the next daemon\n  corral daemon stop --panes  also end every pane (SIGHUP, then SIGKILL) and the pty host (as `corral shutdown`)',
    )
    .action(async (options: { logLevel: (typeof LEVELS)[number]; config?: string }, cmd: Command) => {
      const socket = (cmd.optsWithGlobals() as { socket?: string }).socket;
      // Loaded only here so that client commands never pay for the daemon and node-pty.
      const { runDaemon } = await import('../../daemon/main.ts');
      const code = await runDaemon({
        ...(socket !== undefined ? { socket } : {}),
        logLevel: options.logLevel,
        ...(options.config !== undefined ? { config: options.config } : {}),
      });
      process.exit(code);
    });

  daemon
    .command('stop')
    .description('stop the running daemon; agents keep running in the pty host for the next daemon unless --panes')
    .option('--panes', 'also end every pane (SIGHUP, then SIGKILL after the grace time) and the pty host')
    .action(async (options: { panes?: boolean }, cmd: Command) => stopDaemon(cmd, options.panes === true));
}
