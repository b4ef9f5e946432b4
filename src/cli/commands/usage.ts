import { InvalidArgumentError, Option, type Command } from 'commander';
import { USAGE_REPORT, type UsageReport } from '../../protocol/methods/usage.ts';
import { USAGE_GROUPINGS, type UsageGrouping, type UsageRow } from '../../protocol/usage.ts';
import { spansFleet, withFleet } from '../fleet.ts';
import { globalsOf } from '../globals.ts';
import { printJson, printTable, printText } from '../output.ts';
import { withDaemon } from '../with-daemon.ts';
import { duration } from './parse.ts';
import { formatCost, formatTokens } from './usage-format.ts';

/** `--since`: a duration back from now, as `duration` reads it, or in days (`7d`). */
function since(value: string): number {
  const days = /^(\d+)d$/.exec(value.trim());
  const ms = days ? Number(days[1]) * 86_400_000 : duration(value);
  if (ms < 1 || ms > 366 * 86_400_000) throw new InvalidArgumentError('expected a duration above zero and at most a year (24h, 7d, 90m)');
  return ms;
}

/** One host's report, or why it has none. */
interface HostReport {
  host: string;
  report: UsageReport | null;
  reason: string | null;
}

/** `corral usage`: what the agents spent, from their own records (docs/usage.md). */
export function registerUsageCommand(program: Command): void {
  program
    .command('usage')
    .description("what the agents spent since a time, from their own records (tokens, and cost by the price table): summed by agent, workspace, host or model (docs/usage.md)")
    .option('--since <duration>', 'how far back: 24h, 7d, 90m (whole hours are summed)', since, 86_400_000)
    .addOption(new Option('--by <grouping>', 'what a row sums').choices([...USAGE_GROUPINGS]).default('agent'))
    .option('--fleet', 'every host of the fleet (default: [fleet] by_default)')
    .option('--no-fleet', 'this machine only, whatever [fleet] by_default says')
    .action(async (options: { since: number; by: UsageGrouping; fleet?: boolean }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const from = Date.now() - options.since;
      // A host's rows are its own groupings; across hosts, `host` is this side's sum of each host.
      const asked: UsageGrouping = options.by === 'host' ? 'model' : options.by;
      const reports: HostReport[] = spansFleet(options.fleet)
        ? await withFleet(socket, async (fleet) => {
            await fleet.ready();
            return Promise.all(
              fleet.hosts().map(async (host) => {
                try {
                  return { host: host.name, report: await fleet.callOn(host.name, USAGE_REPORT.name, { since: from, by: asked }), reason: null };
                } catch (error) {
                  return { host: host.name, report: null, reason: (error as Error).message };
                }
              }),
            );
          })
        : [{ host: 'local', report: await withDaemon(socket, (client) => client.call(USAGE_REPORT, { since: from, by: asked })), reason: null }];
      const rows = options.by === 'host' ? reports.flatMap(({ host, report }) => (report ? [hostRow(host, report.rows)] : [])) : reports.flatMap(({ host, report }) => (report?.rows ?? []).map((row) => ({ ...row, host })));
      const unknown = reports.reduce((sum, { report }) => sum + (report?.unknown ?? 0), 0);
      const first = reports.find((entry) => entry.report !== null)?.report ?? null;
      if (json) {
        return printJson({ since: from, by: options.by, currency: first?.currency ?? null, prices: first?.prices ?? null, rows, unknown, hosts: reports.map(({ host, report, reason }) => ({ host, prices: report?.prices ?? null, reason })) });
      }
      for (const { host, reason } of reports) if (reason !== null) printText(`${host}: no figures (${reason})`);
      if (rows.length === 0) printText('no usage read in that time');
      else {
        const many = reports.length > 1 && options.by !== 'host';
        printTable(
          [...(many ? ['HOST'] : []), options.by.toUpperCase(), 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'COST'],
          rows.map((row) => [
            ...(many ? [(row as UsageRow & { host?: string }).host ?? ''] : []),
            row.label,
            formatTokens(row.tokens.input),
            formatTokens(row.tokens.output),
            formatTokens(row.tokens.cacheRead),
            formatTokens(row.tokens.cacheWrite),
            formatCost(row.cost, row.unpriced, first?.currency ?? null),
          ]),
        );
      }
      if (first?.prices) printText(`prices: table ${[...new Set(reports.map(({ report }) => report?.prices).filter(Boolean))].join(', ')} (${first.currency})`);
      if (unknown > 0) printText(`${unknown} running agent${unknown === 1 ? '' : 's'} with unknown usage (no record of theirs is known; docs/usage.md)`);
    });
}

/** A host's rows summed into one. */
function hostRow(host: string, rows: readonly UsageRow[]): UsageRow {
  const sum: UsageRow = { key: host, label: host, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: null, unpriced: 0 };
  for (const row of rows) {
    sum.tokens.input += row.tokens.input;
    sum.tokens.output += row.tokens.output;
    sum.tokens.cacheRead += row.tokens.cacheRead;
    sum.tokens.cacheWrite += row.tokens.cacheWrite;
    sum.unpriced += row.unpriced;
    if (row.cost !== null) sum.cost = (sum.cost ?? 0) + row.cost;
  }
  return sum;
}
