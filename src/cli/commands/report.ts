import { InvalidArgumentError, type Command } from 'commander';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION, type ReportAnswer } from '../../protocol/methods/report.ts';
import { withDaemon } from '../client.ts';
import { globalsOf } from '../globals.ts';
import { printJson } from '../output.ts';
import { UsageError } from '../report.ts';

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

/** The pane a hook runs in: --target, else $CORRAL_PANE, which every pane's environment carries. */
function paneOf(options: { target?: string }): string {
  const target = options.target ?? process.env.CORRAL_PANE;
  if (!target) throw new UsageError('no pane: pass --target, or run inside a Corral pane (CORRAL_PANE is unset)');
  return target;
}

/**
 * The reporter's pid: inside a pane, this process is a descendant of the agent that ran the hook,
 * which is what binding checks; --external sends none (an orchestrator labelling a pane from outside).
 */
function pidOf(options: { external?: boolean }): { pid?: number } {
  return options.external || !process.env.CORRAL_PANE ? {} : { pid: process.pid };
}

function answer(result: ReportAnswer, json: boolean): void {
  if (json) return printJson(result);
  // Hooks stay quiet on success; a rejection is said on stderr with its reason, exit status stays 0.
  if (!result.accepted) process.stderr.write(`report not accepted: ${result.reason ?? 'unknown reason'}\n`);
}

/** `corral agent report|release|session`: what hook commands inside panes call. */
export function registerReportCommands(agent: Command): void {
  agent
    .command('report')
    .description("report an agent's state from a hook (accepted or not, exits 0; see docs/reporting.md)")
    .requiredOption('--source <name>', 'who reports, e.g. hook:claude or plugin:opencode')
    .requiredOption('--agent <id>', 'the agent id, e.g. claude')
    .requiredOption('--state <state>', 'working, idle or blocked')
    .option('--target <pane>', 'pane id or name (default: $CORRAL_PANE)')
    .option('--session <id>', 'the agent session id')
    .option('--seq <n>', 'a sequence number, increasing per source and session', nonNegativeInt)
    .option('--ts <unix-seconds>', 'when the hook ran (default: now)', nonNegativeInt)
    .option('--message <text>', 'a short note shown by explain')
    .option('--external', 'report from outside the pane: send no pid (can never override a live agent)')
    .action(async (options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const params = {
        target: paneOf(options),
        source: options.source as string,
        agent: options.agent as string,
        state: options.state as string,
        ts: (options.ts as number | undefined) ?? Math.floor(Date.now() / 1000),
        ...(options.session !== undefined ? { session: options.session as string } : {}),
        ...(options.seq !== undefined ? { seq: options.seq as number } : {}),
        ...(options.message !== undefined ? { message: options.message as string } : {}),
        ...pidOf(options),
      };
      answer(await withDaemon(socket, (client) => client.call(PANE_REPORT_AGENT, params)), json);
    });

  agent
    .command('release')
    .description("report that the source's agent session ended")
    .requiredOption('--source <name>', 'who reports')
    .option('--target <pane>', 'pane id or name (default: $CORRAL_PANE)')
    .option('--session <id>', 'the agent session id')
    .option('--external', 'send no pid')
    .action(async (options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const params = {
        target: paneOf(options),
        source: options.source as string,
        ...(options.session !== undefined ? { session: options.session as string } : {}),
        ...pidOf(options),
      };
      answer(await withDaemon(socket, (client) => client.call(PANE_RELEASE_AGENT, params)), json);
    });

  agent
    .command('session')
    .description('report which agent session runs in the pane (identity only, no state)')
    .requiredOption('--source <name>', 'who reports')
    .requiredOption('--session <id>', 'the agent session id')
    .option('--agent <id>', 'the agent id')
    .option('--target <pane>', 'pane id or name (default: $CORRAL_PANE)')
    .option('--external', 'send no pid')
    .action(async (options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const params = {
        target: paneOf(options),
        source: options.source as string,
        session: options.session as string,
        ...(options.agent !== undefined ? { agent: options.agent as string } : {}),
        ...pidOf(options),
      };
      answer(await withDaemon(socket, (client) => client.call(PANE_REPORT_SESSION, params)), json);
    });
}
