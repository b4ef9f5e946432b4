import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerAgentCommands } from './commands/agent.ts';
import { registerApiCommands } from './commands/api.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerAgentQueryCommands } from './commands/agent-query.ts';
import { registerAgentWaitCommand } from './commands/agent-wait.ts';
import { registerAgentActCommands } from './commands/agent-act.ts';
import { registerAttachCommand } from './commands/attach.ts';
import { registerDaemonCommand } from './commands/daemon.ts';
import { registerEventsCommand } from './commands/events.ts';
import { registerHostCommands } from './commands/host.ts';
import { registerInboxCommands } from './commands/inbox.ts';
import { registerNotifyCommands } from './commands/notify.ts';
import { registerReportCommands } from './commands/report.ts';
import { registerHookReportCommand } from './commands/hook-report.ts';
import { registerPaneCommands } from './commands/pane.ts';
import { registerRecordCommand } from './commands/record.ts';
import { registerServerCommands } from './commands/server.ts';
import { registerTopCommand } from './commands/top.ts';
import { registerUpCommands } from './commands/up.ts';
import { registerWebCommand } from './commands/web.ts';
import { registerPolicyCommands } from './commands/policy.ts';
import { registerUsageCommand } from './commands/usage.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { reportError } from './print-error.ts';
import { remoteRun, runRemote } from './remote.ts';
import { routeHostTargets } from './host-targets.ts';

/**
 * The offline commands load the detection engine (~0.3-0.8 s measured on this machine), so they are
 * registered only when the command line may need them; client calls to the daemon start fast.
 */
function needsOfflineCommands(argv: string[]): boolean {
  const words = commandWords(argv);
  const [group, command] = words;
  if (group === undefined || group === 'help' || argv.includes('--help') || argv.includes('-h')) return true;
  return group === 'detect' || group === 'manifest' || group === 'integration' || (group === 'server' && command === 'update-manifests');
}

/** The words of the command line that are neither global options nor their values. */
function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word === '--socket') i += 1;
    else if (!word.startsWith('-')) words.push(word);
  }
  return words;
}

function clientVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

async function buildProgram(argv: string[]): Promise<Command> {
  const program = new Command('corral')
    .description("Owns AI coding agents' terminals on real PTYs and serves them over a Unix socket.")
    .version(clientVersion(), '-V, --version', 'print the version of this client')
    .option('--socket <path>', 'daemon socket (default: $CORRAL_SOCKET, $XDG_RUNTIME_DIR/corral/corral.sock, /tmp/corral-$UID/corral.sock)')
    .option('--json', 'print JSON for scripts instead of text for people')
    .option('--host <host>', 'run the command against the daemon on another machine, through ssh: a [[hosts]] name of config.toml (its whole entry) or user@box (default: $CORRAL_HOST; docs/remote.md)')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride()
    .hook('preAction', (_program, action) => routeHostTargets(action));
  registerDaemonCommand(program);
  registerServerCommands(program);
  registerPaneCommands(program);
  registerRecordCommand(program.commands.find((command) => command.name() === 'pane')!);
  const agent = registerAgentCommands(program);
  registerReportCommands(agent);
  registerAgentQueryCommands(agent, program);
  registerAgentWaitCommand(agent);
  registerAgentActCommands(agent, program.commands.find((command) => command.name() === 'pane'));
  registerAttachCommand(program);
  registerTopCommand(program);
  registerUpCommands(program);
  registerEventsCommand(program);
  registerHostCommands(program);
  registerInboxCommands(program);
  registerPolicyCommands(program);
  registerNotifyCommands(program);
  registerUsageCommand(program);
  registerApiCommands(program, clientVersion());
  registerMcpCommand(program, clientVersion());
  registerWebCommand(program);
  registerHookReportCommand(program);
  if (needsOfflineCommands(argv)) {
    const { registerOfflineCommands } = await import('./offline/register.ts');
    registerOfflineCommands(program);
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const remote = remoteRun(argv);
  if (remote) {
    try {
      return await runRemote(remote);
    } catch (error) {
      return reportError(error, argv.includes('--json')); // config.toml that names hosts cannot be read
    }
  }
  const words = commandWords(argv);
  if (words[0] === 'report' && !argv.includes('--help') && !argv.includes('-h')) {
    // The hook command parses its own line (bin/corral usually runs it from its own bundle).
    const { runReport } = await import('./report/run.ts');
    const at = argv.indexOf('report');
    return runReport([...argv.slice(0, at), ...argv.slice(at + 1)]);
  }
  try {
    await (await buildProgram(argv)).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(error, argv.includes('--json'));
  }
}

/**
 * A reader that went away (`corral agent list | head -1`) ends every command quietly with exit 0:
 * there is no one left to print to, and the command's work needs no more of stdout.
 */
function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(EXIT.ok);
  });
}

endQuietlyWhenStdoutCloses();
process.exitCode = await main(process.argv.slice(2));
