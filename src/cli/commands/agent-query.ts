import { InvalidArgumentError, type Command } from 'commander';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import {
  AGENT_FOCUS,
  AGENT_LIST,
  AGENT_READ,
  AGENT_READ_SOURCES,
  PANE_FOCUS,
  type AgentListResult,
  type AgentReadSource,
} from '../../protocol/methods/agent-query.ts';
import type { FleetAgentList } from '../../client/index.ts';
import { withDaemon } from '../with-daemon.ts';
import { printRollups, spansFleet, staleText, withFleet } from '../fleet.ts';
import { globalsOf } from '../globals.ts';
import { forEachTarget } from '../targets.ts';
import { printJson, printTable, printText } from '../output.ts';
import { formatAge } from './format.ts';
import { agentOf, titleOf, tokensOf } from '../display.ts';
import { positiveInt } from './parse.ts';
import { usageCell } from './usage-format.ts';

function readSource(value: string): AgentReadSource {
  if (!(AGENT_READ_SOURCES as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${AGENT_READ_SOURCES.join(', ')}`);
  return value as AgentReadSource;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter((s) => s !== '')];
}

function paneLabel(info: AgentInfo): string {
  return info.name ? `${info.id} (${info.name})` : info.id;
}

/** The table people read; `--json` has every field and the `seq` to wait from. */
function printAgentList(result: AgentListResult): void {
  const now = Date.now();
  const tokens = result.agents.some((a) => tokensOf(a) !== '');
  // Spend read from the agents' own records (docs/usage.md): a column once any agent has figures.
  const usage = result.agents.some((a) => typeof a.usage === 'object');
  printTable(
    ['ID', 'NAME', 'AGENT', 'STATE', ...(tokens ? ['TOKENS'] : []), ...(usage ? ['USAGE'] : []), 'TITLE'],
    result.agents.map((a) => [
      a.id,
      a.name ?? '-',
      agentOf(a),
      `${a.state} ${formatAge(now - a.stateSince)}`,
      ...(tokens ? [tokensOf(a) || '-'] : []),
      ...(usage ? [usageCell(a.usage)] : []),
      titleOf(a) || '-',
    ]),
  );
  for (const w of result.workspaces) {
    const counts = Object.entries(w.counts).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${state}`);
    printText(`${w.workspace}: ${w.state} (${counts.join(', ')})`);
  }
}

/** The fleet's table: the agents of every host, those of a host that is away marked stale with their last known state. */
function printFleetList(list: FleetAgentList): void {
  const now = Date.now();
  const usage = list.agents.some((a) => typeof a.usage === 'object');
  printTable(
    ['HOST', 'ID', 'NAME', 'AGENT', 'STATE', ...(usage ? ['USAGE'] : []), 'TITLE'],
    list.agents.map((a) => [a.host, a.id, a.name ?? '-', agentOf(a), `${a.state} ${formatAge(now - a.stateSince)}${a.stale ? ` (${staleText(a.lastSeen)})` : ''}`, ...(usage ? [usageCell(a.usage)] : []), titleOf(a) || '-']),
  );
  printRollups(list);
}

/** `corral agent list|read|focus` and `corral pane focus`. */
export function registerAgentQueryCommands(agent: Command, program: Command): void {
  agent
    .command('list')
    .description('every pane with an agent: state and its age, title; a rollup per workspace')
    .option('--all', 'also list panes with no identified agent')
    .option('--agent <id>', 'only this agent (claude, codex, ...)')
    .option('--state <state>', 'only agents in this state (idle does not take done), repeatable', collect, [])
    .option('--workspace <w>', 'only this workspace')
    .option('--name <pattern>', 'only panes whose name matches (* any run, ? one character)')
    .option('--fleet', 'every host of the fleet: a HOST column, a rollup per host and one "needs you" count (default: [fleet] by_default)')
    .option('--no-fleet', 'this machine only, whatever [fleet] by_default says')
    .action(async (options, cmd: Command) => {
      const { daemon, socket, json } = globalsOf(cmd);
      const filter = {
        ...(options.agent !== undefined ? { agent: options.agent as string } : {}),
        ...((options.state as string[]).length > 0 ? { state: options.state as AgentInfo['state'][] } : {}),
        ...(options.workspace !== undefined ? { workspace: options.workspace as string } : {}),
        ...(options.name !== undefined ? { name: options.name as string } : {}),
      };
      const params = { filter, ...(options.all ? { all: true } : {}) };
      if (spansFleet(options.fleet as boolean | undefined)) {
        const list = await withFleet(socket, (fleet) => fleet.list(params));
        if (json) return printJson(list);
        return printFleetList(list);
      }
      const result = await withDaemon(daemon, (client) => client.call(AGENT_LIST, params));
      if (json) return printJson(result);
      printAgentList(result);
    });

  agent
    .command('read')
    .description("print the pane's screen, scrollback, or exactly what detection reads; never marks it seen")
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .option('--source <source>', `${AGENT_READ_SOURCES.join(', ')} (default screen)`, readSource)
    .option('--lines <n>', 'only the last N lines with text', positiveInt)
    .option('--keep-blank', 'keep the blank rows below the last row with text (left out by default)')
    .option('--ansi', 'keep colours and attributes as escape sequences (not with detection)')
    .action(async (target: string, options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      const params = {
        ...(options.keepBlank ? {} : { trim: true }),
        ...(options.source !== undefined ? { source: options.source as AgentReadSource } : {}),
        ...(options.lines !== undefined ? { lines: options.lines as number } : {}),
        ...(options.ansi ? { ansi: true } : {}),
      };
      await forEachTarget(daemon, target, json, (client, id) => client.call(AGENT_READ, { target: id, ...params }), (result) => printText(result.text));
    });

  agent
    .command('focus')
    .description('mark the pane seen: done becomes idle')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .action(async (target: string, _options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      await forEachTarget(daemon, target, json, (client, id) => client.call(AGENT_FOCUS, { target: id }), (info) => printText(`${paneLabel(info)}: ${info.state}`));
    });

  const pane = program.commands.find((c) => c.name() === 'pane');
  if (!pane) throw new Error('the pane command group must be registered before pane focus');
  pane
    .command('focus')
    .description('mark the pane seen, as a person looking at it would: done becomes idle')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .action(async (target: string, _options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      await forEachTarget(daemon, target, json, (client, id) => client.call(PANE_FOCUS, { target: id }), (info) => printText(`${paneLabel(info)}: ${info.state}`));
    });
}
