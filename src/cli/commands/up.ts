import { InvalidArgumentError, type Command } from 'commander';
import { AGENT_STATES, type AgentState } from '../../protocol/states.ts';
import { globalsOf } from '../globals.ts';
import { printJson, printTable } from '../output.ts';
import { DEFAULT_FLEET_FILE, readFleetFile, type DeclaredAgent, type FleetFile } from '../up/fleet-file.ts';
import { downHere, upHere, type UpOptions } from '../up/here.ts';
import { errorOf, type AgentOutcome } from '../up/outcome.ts';
import { runOnHost } from '../up/over-ssh.ts';
import { duration } from './parse.ts';

/** The run's verdict when something is not as the file says: the first error's code, else `fleet_differs`. */
class FleetRunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function agentState(value: string): AgentState {
  if (!(AGENT_STATES as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected a state among ${AGENT_STATES.join(', ')}`);
  return value as AgentState;
}

/** The file's agents by where they run: this machine first (null), then each host in the file's order. */
function byHost(fleet: FleetFile): Map<string | null, DeclaredAgent[]> {
  const groups = new Map<string | null, DeclaredAgent[]>([[null, []]]);
  for (const agent of fleet.agents) {
    const key = agent.host ?? null;
    groups.set(key, [...(groups.get(key) ?? []), agent]);
  }
  if (groups.get(null)!.length === 0) groups.delete(null);
  return groups;
}

/** Runs `here` for this machine's agents and `corral <verb> -` through ssh for each host's, all at once. */
async function acrossHosts(
  fleet: FleetFile,
  verb: 'up' | 'down',
  flags: string[],
  here: (agents: DeclaredAgent[]) => Promise<AgentOutcome[]>,
): Promise<{ outcomes: AgentOutcome[]; remoteExit: number }> {
  const runHere = async (agents: DeclaredAgent[]) => {
    try {
      return { outcomes: await here(agents), exitCode: 0 };
    } catch (error) {
      // This daemon unreachable, say: its agents fail, the hosts' go on.
      const failed = errorOf(error);
      return { outcomes: agents.map((agent): AgentOutcome => ({ name: agent.name, host: null, action: 'failed', pane: null, error: failed })), exitCode: 0 };
    }
  };
  const runs = [...byHost(fleet)].map(([host, agents]) => (host === null ? runHere(agents) : runOnHost(host, verb, agents, flags)));
  const done = await Promise.all(runs);
  // Each host's outcomes in the file's order.
  const order = new Map(fleet.agents.map((agent, index) => [agent.name, index]));
  const outcomes = done.flatMap((run) => run.outcomes).sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  return { outcomes, remoteExit: done.find((run) => run.exitCode !== 0)?.exitCode ?? 0 };
}

function note(outcome: AgentOutcome): string {
  const parts: string[] = [];
  if (outcome.worktree) parts.push(`${outcome.worktree.made ? 'made worktree' : 'worktree'} ${outcome.worktree.path}`);
  if (outcome.prompted) parts.push('prompted');
  if (outcome.state) parts.push(outcome.state);
  if (outcome.differences) parts.push(...outcome.differences);
  if (outcome.error) parts.push(`${outcome.error.message} [${outcome.error.code}]`);
  return parts.join('; ');
}

function print(outcomes: AgentOutcome[], json: boolean): void {
  if (json) return printJson({ agents: outcomes });
  printTable(
    ['NAME', 'HOST', 'PANE', 'ACTION', 'NOTE'],
    outcomes.map((outcome) => [outcome.name, outcome.host ?? '-', outcome.pane ?? '-', outcome.action, note(outcome)]),
  );
}

/** Throws the run's verdict after its table was printed: the first error, else the agents that differ. */
function verdict(fleet: FleetFile, outcomes: AgentOutcome[]): void {
  const failed = outcomes.filter((outcome) => outcome.error !== undefined);
  if (failed.length > 0) {
    const first = failed[0]!;
    throw new FleetRunError(first.error!.code, `${failed.length} of ${outcomes.length} agents of ${fleet.file} did not come out as declared; first, ${first.name}${first.host ? ` on ${first.host}` : ''}: ${first.error!.message}`);
  }
  const differ = outcomes.filter((outcome) => outcome.action === 'differs').map((outcome) => outcome.name);
  if (differ.length > 0) {
    throw new FleetRunError('fleet_differs', `${differ.join(', ')} ${differ.length === 1 ? 'runs' : 'run'} otherwise than ${fleet.file} declares and ${differ.length === 1 ? 'was' : 'were'} left alone: run corral up --recreate to replace ${differ.length === 1 ? 'it' : 'them'}`);
  }
}

export function registerUpCommands(program: Command): void {
  program
    .command('up')
    .description(`start the agents a fleet file declares (default ./${DEFAULT_FLEET_FILE}; - reads stdin), leaving alone those running as declared (docs/fleet.md)`)
    .argument('[file]', 'the fleet file', DEFAULT_FLEET_FILE)
    .option('--recreate', 'replace an agent whose pane differs from the file (default: report it, exit 1)')
    .option('--wait <state>', 'then wait until every agent is in this state (idle: ready; idle also matches done)', agentState)
    .option('--timeout <duration>', 'bound each wait (for an agent\'s first idle before its prompt, and --wait); exit 124', duration)
    .action(async (file: string, options: { recreate?: boolean; wait?: AgentState; timeout?: number }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const fleet = await readFleetFile(file);
      const up: UpOptions = { recreate: options.recreate === true, wait: options.wait ?? null, ...(options.timeout !== undefined ? { timeoutMs: options.timeout } : {}) };
      const flags = [...(up.recreate ? ['--recreate'] : []), ...(up.wait ? ['--wait', up.wait] : []), ...(up.timeoutMs !== undefined ? ['--timeout', String(up.timeoutMs)] : [])];
      const { outcomes, remoteExit } = await acrossHosts(fleet, 'up', flags, (agents) => upHere(socket, fleet.dir, agents, up));
      print(outcomes, json);
      verdict(fleet, outcomes);
      if (remoteExit !== 0) throw new FleetRunError('remote_failed', `corral up on another host exited ${remoteExit}`);
    });

  program
    .command('down')
    .description(`end the agents a fleet file declares (default ./${DEFAULT_FLEET_FILE}), found by name, and nothing else`)
    .argument('[file]', 'the fleet file', DEFAULT_FLEET_FILE)
    .action(async (file: string, _options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const fleet = await readFleetFile(file);
      const { outcomes, remoteExit } = await acrossHosts(fleet, 'down', [], (agents) => downHere(socket, agents));
      print(outcomes, json);
      verdict(fleet, outcomes);
      if (remoteExit !== 0) throw new FleetRunError('remote_failed', `corral down on another host exited ${remoteExit}`);
    });
}
