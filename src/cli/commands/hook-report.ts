import type { Command } from 'commander';
import { HOOK_DEADLINE_MS } from '../report/run.ts';

/**
 * `corral report`, declared here for --help only: the line is parsed by the hook path itself
 * (src/cli/report/), which bin/corral runs from its own small bundle.
 */
export function registerHookReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      `the command an agent's hook runs: reports its state to the pane it runs in (outside a pane: to the external pane of its source and session). Prints nothing on stdout, ` +
        `gives up after ${HOOK_DEADLINE_MS} ms, and exits 0 whatever happens unless --strict (see docs/reporting.md)`,
    )
    .option('--hook <cli>', 'read the hook payload of claude, codex, gemini, qwen or opencode (stdin; codex: last argument) and map its event')
    .option('--state <state>', 'working, idle or blocked (overrides what the event maps to)')
    .option('--agent <id>', 'the agent id (default: the --hook CLI)')
    .option('--source <name>', 'who reports (default: hook:<cli>)')
    .option('--session <id>', "the agent session id (default: the payload's)")
    .option('--target <pane>', 'one pane id or name (default: $CORRAL_PANE; neither: an external pane)')
    .option('--seq <n>', "this event's order, when the agent's plugin numbers its events (default: the hook's start time)")
    .option('--message <text>', 'a short note shown by explain')
    .option('--chain <json-array>', 'run this program too, with the payload as its last argument (chains a user notify)')
    .option('--strict', 'exit 1 when rejected, 2 on usage errors, 4 when no daemon answers, 124 on timeout');
}
