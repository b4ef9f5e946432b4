import type { Command } from 'commander';
import { globalsOf } from '../globals.ts';
import { hostStateText, printRollups, staleText, withFleet } from '../fleet.ts';
import { printJson, printTable } from '../output.ts';

/** `corral host list`: each host of the fleet (this machine as `local`, then `[[hosts]]`), its state and its agents. */
export function registerHostCommands(program: Command): void {
  const host = program.command('host').description('the machines of the fleet: this one (local) and the [[hosts]] of config.toml (docs/fleet.md)');

  host
    .command('list')
    .description('each host: connected, connecting, or offline with why and since when; its agents and how many need you')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      await withFleet(socket, async (fleet) => {
        const list = await fleet.list();
        const statuses = fleet.hosts();
        if (json) {
          return printJson({
            hosts: statuses.map((status) => ({ ...status, rollup: list.hosts.find((h) => h.name === status.name) ?? null })),
            fleet: list.fleet,
          });
        }
        printTable(
          ['HOST', 'SSH', 'AGENTS', 'NEEDS YOU', 'STATE'],
          list.hosts.map((rollup) => {
            const status = statuses.find((s) => s.name === rollup.name)!;
            const agents = Object.values(rollup.counts).reduce((a, b) => a + b, 0);
            return [rollup.name, status.ssh ?? '-', `${agents}${rollup.stale > 0 ? ` (${staleText(rollup.lastSeen)})` : ''}`, String(rollup.needsYou), hostStateText(rollup)];
          }),
        );
        printRollups(list);
      });
    });
}
