import type { Command } from 'commander';
import type { MethodDecl } from '../../protocol/method.ts';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION, type ReportAnswer } from '../../protocol/methods/report.ts';
import { withDaemon, type DaemonConnection } from '../with-daemon.ts';
import { oneTarget } from '../targets.ts';
import { globalsOf } from '../globals.ts';
import { printJson } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { nonNegativeInt } from './parse.ts';

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

/** Options every report command takes: who reports, the pane, and whether from outside it. */
function reportCommand(agent: Command, name: string, description: string): Command {
  return agent
    .command(name)
    .description(description)
    .requiredOption('--source <name>', 'who reports, e.g. hook:claude or plugin:opencode')
    .option('--target <pane>', 'pane id or name, or @WORKSPACE or a pattern that names exactly one pane (default: $CORRAL_PANE)')
    .option('--external', 'report from outside the pane: send no pid (can never override a live agent)');
}

/** One deadline for connect, write and answer: a daemon that accepts and never answers cannot hold a hook. */
export const REPORT_DEADLINE_MS = 2000;

/** Sends one report with the common fields filled in, and answers as hooks need. */
async function send<P>(cmd: Command, options: Record<string, unknown>, method: MethodDecl<P, ReportAnswer>, fields: object): Promise<void> {
  const { socket, json } = globalsOf(cmd);
  const target = paneOf(options);
  const call = async (client: DaemonConnection) => {
    const params = { target: await oneTarget(client, target, `agent ${cmd.name()}`), source: options.source as string, ...fields, ...pidOf(options) } as P;
    return client.call(method, params);
  };
  answer(await withDaemon(socket, call, { deadlineMs: REPORT_DEADLINE_MS }), json);
}

/** Optional string options, only where given. */
function given(options: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => options[name] !== undefined).map((name) => [name, options[name]]));
}

/** `corral agent report|release|session`: what hook commands inside panes call. */
export function registerReportCommands(agent: Command): void {
  reportCommand(agent, 'report', "report an agent's state (exits 0 whether accepted or not, 4 when no daemon answers, 124 after 2 s without an answer; hooks should use `corral report`, see docs/reporting.md)")
    .requiredOption('--agent <id>', 'the agent id, e.g. claude')
    .requiredOption('--state <state>', 'working, idle or blocked')
    .option('--session <id>', 'the agent session id')
    .option('--seq <n>', 'a sequence number, increasing per source and session', nonNegativeInt)
    .option('--ts <unix-seconds>', 'when the hook ran (default: now)', nonNegativeInt)
    .option('--message <text>', 'a short note shown by explain')
    .action((options, cmd: Command) =>
      send(cmd, options, PANE_REPORT_AGENT, {
        agent: options.agent,
        state: options.state,
        ts: options.ts ?? Math.floor(Date.now() / 1000),
        ...given(options, 'session', 'seq', 'message'),
      }),
    );

  reportCommand(agent, 'release', "report that the source's agent session ended")
    .option('--session <id>', 'the agent session id')
    .action((options, cmd: Command) => send(cmd, options, PANE_RELEASE_AGENT, given(options, 'session')));

  reportCommand(agent, 'session', 'report which agent session runs in the pane (the session only, no state)')
    .requiredOption('--session <id>', 'the agent session id')
    .option('--agent <id>', 'the agent id')
    .action((options, cmd: Command) => send(cmd, options, PANE_REPORT_SESSION, { session: options.session, ...given(options, 'agent') }));
}
