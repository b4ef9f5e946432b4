import type { Command } from 'commander';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { DEFAULT_DETACH_KEY, parseDetachKey } from '../attach/detach-key.ts';
import { withDaemon } from '../with-daemon.ts';
import { followConnection, LiveAgents, qualify } from '../../client/index.ts';
import { spansFleet, withFleet } from '../fleet.ts';
import { globalsOf } from '../globals.ts';
import { printJson, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { renderFrame } from '../top/render.ts';
import { renderFleetFrame } from '../top/fleet-render.ts';
import { FleetTopRows } from '../top/fleet-rows.ts';
import { FleetSource } from '../top/fleet-source.ts';
import { HostSource } from '../top/host-source.ts';
import { runTop } from '../top/top-app.ts';
import { TopRows } from '../top/rows.ts';
import { finishAttach } from './attach.ts';

/** A host's agents as listed once, for a frame drawn once. */
function listed(agents: readonly AgentInfo[]): LiveAgents {
  const live = new LiveAgents();
  live.reset(agents);
  return live;
}

/** What `corral attach` would print or fail with, as one status line for top. */
function describe(outcome: Parameters<typeof finishAttach>[0]): string {
  let line = '';
  try {
    finishAttach(outcome, (text) => (line = text));
  } catch (error) {
    line = (error as Error).message;
  }
  return line;
}

export function registerTopCommand(program: Command): void {
  program
    .command('top')
    .description('a live full-screen view of every agent, updated by the event stream; keys move, focus, attach, quit')
    .option('--once', 'print one frame as plain text and exit (with --json: the rows)')
    .option('--cols <n>', 'width of the --once frame (default: the terminal width, else 80)')
    .option('--fleet', 'every host of the fleet: rows grouped by host, a rollup per host and one "needs you" count (--once: each pane as ID@HOST; default: [fleet] by_default)')
    .option('--no-fleet', 'this machine only, whatever [fleet] by_default says')
    .option('--detach-key <key>', 'the control key that leaves an attached pane: C-\\, C-], C-a ...', DEFAULT_DETACH_KEY)
    .action(async (options: { once?: boolean; cols?: string; detachKey: string; fleet?: boolean }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const detachKey = parseDetachKey(options.detachKey);
      const acrossHosts = spansFleet(options.fleet);
      if (options.once) {
        const cols = options.cols === undefined ? process.stdout.columns || 80 : Number(options.cols);
        if (!Number.isInteger(cols) || cols < 20 || cols > 1000) throw new UsageError('--cols must be an integer from 20 to 1000');
        if (acrossHosts) {
          // The live view's frame, grouped by host; as rows, each is named by its id on its host (ids repeat across hosts).
          const { list, hosts } = await withFleet(socket, async (fleet) => ({ list: await fleet.list(), hosts: fleet.hosts() }));
          const rows = new FleetTopRows(hosts.map((status) => ({ status, live: listed(list.agents.filter((info) => info.host === status.name)) })));
          if (json) return printJson(rows.groups().flatMap((group) => group.agents.map((info) => ({ ...info, id: qualify(info.id, info.host), inbox: null }))));
          return printText(renderFleetFrame(rows.groups(), { cols, height: Number.MAX_SAFE_INTEGER, now: Date.now(), selected: null, color: false }).join('\n'));
        }
        const rows = new TopRows();
        await withDaemon(socket, async (client) => (await followConnection(client, rows.live)).dispose());
        const sorted = rows.sorted();
        const needing = rows.needing();
        if (json) return printJson(sorted.map((info) => ({ ...info, inbox: rows.live.inbox.of(info.id) })));
        return printText(renderFrame(sorted, { cols, height: sorted.length + 4, now: Date.now(), selected: -1, color: false, needing }).join('\n'));
      }
      if (json) throw new UsageError('--json needs --once: the live view is for people');
      if (!process.stdin.isTTY || !process.stdout.isTTY) throw new UsageError('the live view needs a terminal; use --once (and --json) in scripts');
      const app = { stdin: process.stdin, stdout: process.stdout, detachKey, describe };
      if (acrossHosts) {
        let source: FleetSource | null = null; // until the view runs, a warning goes to stderr as in the other commands
        const onWarning = (message: string) => (source ? source.warn(message) : void process.stderr.write(`corral: ${message}\n`));
        await withFleet(socket, (connected) => runTop((source = new FleetSource(connected)), app), { onWarning, live: true });
      } else await withDaemon(socket, (client) => runTop(new HostSource(client), app));
    });
}
