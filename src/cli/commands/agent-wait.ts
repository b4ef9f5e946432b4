import { InvalidArgumentError, Option, type Command } from 'commander';
import { CorralError } from '../../protocol/errors.ts';
import { DEFAULT_WAIT_UNTIL, type AgentWaitResult } from '../../protocol/methods/agent-wait.ts';
import { AGENT_STATES, type AgentState } from '../../protocol/states.ts';
import { DEFAULT_RECONNECT_GRACE_MS, endpointFor, fleetHosts, splitHostTarget, waitAcrossHosts, waitCarryingOn, type FleetWaitParams, type FleetWaitResult } from '../../client/index.ts';
import { spansFleet } from '../fleet.ts';
import { checkProtocol } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { printJson, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { duration, nonNegativeInt } from './parse.ts';

function collectStates(value: string, previous: AgentState[]): AgentState[] {
  const states = value.split(',').filter((s) => s !== '');
  for (const state of states) {
    if (!(AGENT_STATES as readonly string[]).includes(state)) throw new InvalidArgumentError(`expected states among ${AGENT_STATES.join(', ')}`);
  }
  return [...previous, ...(states as AgentState[])];
}

/** The result fields a timeout or gone error carries in its data, printed like a result for scripts. */
function resultOf(error: CorralError): AgentWaitResult & { gone?: string[] } {
  const { matched, states, seq, elapsedMs, gone } = error.details as Partial<AgentWaitResult & { gone: string[] }>;
  return { matched: matched ?? [], states: states ?? {}, seq: seq ?? 0, elapsedMs: elapsedMs ?? 0, ...(gone ? { gone } : {}) };
}

/** `--since-seq 12`, or per host `box1=12,local=40`. */
function seqOption(value: string): number | Record<string, number> {
  if (/^\d+$/.test(value)) return nonNegativeInt(value);
  const seqs: Record<string, number> = {};
  for (const part of value.split(',')) {
    const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)=(\d+)$/.exec(part);
    if (!match) throw new InvalidArgumentError('expected a seq (N), or one per host (HOST=N,HOST=N)');
    seqs[match[1]!] = Number(match[2]);
  }
  return seqs;
}

/** The wait across hosts: one per host, under one deadline; printed and exited as the local wait is. */
async function waitOnFleet(socket: string, params: FleetWaitParams, reconnectMs: number | undefined, json: boolean): Promise<void> {
  const links = new Map(fleetHosts({ socket }).map((spec) => [spec.name, { endpoint: endpointFor(spec) }] as const));
  let result: FleetWaitResult;
  try {
    result = await waitAcrossHosts(links, params, { reconnectGraceMs: reconnectMs ?? DEFAULT_RECONNECT_GRACE_MS });
  } catch (error) {
    if (json && error instanceof CorralError && (error.code === 'timeout' || error.code === 'agent_gone')) printJson(error.details);
    throw error;
  }
  if (json) return printJson(result);
  for (const [target, state] of Object.entries(result.states)) printText(`${target}: ${state}${result.matched.includes(target) ? '' : ' (not matched)'}`);
  for (const [target, screen] of Object.entries(result.screens ?? {})) {
    printText(`--- ${target} screen ---`);
    printText(screen);
  }
}

/**
 * `corral agent wait`: exits 0 on a match, 3 when a target is not found or has no agent, 5 when it went
 * away while waiting, 4 when no daemon answers, 124 on
 * timeout; with --json the result object goes to stdout in every one of those outcomes but 4.
 * The client sets no timeout of its own: the wait lasts as long as --timeout says, or forever; when
 * the daemon goes away it reconnects and waits on with what is left of --timeout (exit 4 only past --reconnect).
 */
export function registerAgentWaitCommand(agent: Command): void {
  agent
    .command('wait')
    .description(`wait until any (or all) targets are in a state (default ${DEFAULT_WAIT_UNTIL.join(', ')}); idle also matches done`)
    .argument('[targets...]', 'pane ids or names, @WORKSPACE, or a name pattern with * or ?')
    .option('--all-agents', 'wait on every pane with an identified agent (with targets: those too)')
    .option('--allow-unknown', 'wait on a pane whose agent is not identified (instead of failing with no_agent)')
    .option('--read', 'then print the screen of each matched target (--json: in .screens)')
    // The daemon applies the default; the help names it rather than the empty list the parser starts from.
    .addOption(
      new Option('--until <state>', 'a state to wait for, repeatable or comma-separated').argParser(collectStates).default([], DEFAULT_WAIT_UNTIL.join(', ')),
    )
    .option('--any', 'return when any target matches (the default)')
    .option('--all', 'return when every target matches at once')
    .option('--timeout <duration>', 'give up after this long (15m, 90s, 500ms; a plain number is ms); exit 124', duration)
    .option('--since-seq <n>', 'only a change after this state_change_seq counts (from `agent list --json` .seq); across hosts HOST=N,HOST=N', seqOption)
    .option('--stable <duration>', 'the state must hold this long (a plain number is ms)', duration)
    .option('--fleet', 'with --all-agents: every host of the fleet (targets as TARGET@HOST span hosts without it)')
    .option('--no-fleet', 'this machine only, whatever [fleet] by_default says')
    .option('--reconnect <duration>', `when the daemon goes away, keep trying to reach it this long, then exit 4 (default ${DEFAULT_RECONNECT_GRACE_MS / 1000}s; 0: exit at once)`, duration)
    .action(async (targets: string[], options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      if (options.any && options.all) throw new UsageError('give --any or --all, not both');
      const acrossHosts = targets.some((target) => splitHostTarget(target).host !== null) || (options.allAgents && spansFleet(options.fleet as boolean | undefined));
      if (targets.length === 0 && !options.allAgents) throw new UsageError('name a target (a pane, @WORKSPACE or a pattern), or give --all-agents');
      const until = options.until as AgentState[];
      const params = {
        ...(targets.length > 0 ? { targets } : {}),
        ...(options.allAgents ? { allAgents: true } : {}),
        ...(options.allowUnknown ? { allowUnknown: true } : {}),
        ...(options.read ? { read: true } : {}),
        mode: options.all ? ('all' as const) : ('any' as const),
        ...(until.length > 0 ? { until } : {}),
        ...(options.timeout !== undefined ? { timeoutMs: options.timeout as number } : {}),
        ...(options.stable !== undefined ? { stableMs: options.stable as number } : {}),
      };
      const sinceSeq = options.sinceSeq as number | Record<string, number> | undefined;
      if (acrossHosts) {
        if (typeof sinceSeq === 'number') throw new UsageError('across hosts, --since-seq takes a seq per host: HOST=N,HOST=N (from `agent list --fleet --json` .seq)');
        return waitOnFleet(socket, { ...params, ...(sinceSeq !== undefined ? { sinceSeq } : {}) }, options.reconnect as number | undefined, json);
      }
      if (sinceSeq !== undefined && typeof sinceSeq !== 'number') throw new UsageError('--since-seq HOST=N is for targets on several hosts; here give one number');
      if (sinceSeq !== undefined) Object.assign(params, { sinceSeq });
      let result: AgentWaitResult;
      try {
        // The first connect fails at once (exit 4) when no daemon runs; after that the wait carries on.
        result = await waitCarryingOn(socket, params, {
          daemonFirst: true,
          graceMs: (options.reconnect as number | undefined) ?? DEFAULT_RECONNECT_GRACE_MS,
          prepare: (connection) => checkProtocol(connection),
        });
      } catch (error) {
        if (json && error instanceof CorralError && (error.code === 'timeout' || error.code === 'agent_gone')) printJson(resultOf(error));
        throw error;
      }
      if (json) return printJson(result);
      for (const [target, state] of Object.entries(result.states)) {
        printText(`${target}: ${state}${result.matched.includes(target) ? '' : ' (not matched)'}`);
      }
      for (const [target, screen] of Object.entries(result.screens ?? {})) {
        printText(`--- ${target} screen ---`);
        printText(screen);
      }
    });
}
