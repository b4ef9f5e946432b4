import type { Command } from 'commander';
import { EVENT_KINDS, EVENTS_CURSOR, EVENTS_READ, type AnyCorralEvent, type CorralEvent } from '../../protocol/methods/events.ts';
import { streamUntilSignal } from '../stream-until-signal.ts';
import { connectFleet, DEFAULT_RECONNECT_GRACE_MS, EventStream, fleetHosts, type FleetEvent, type HostStatus } from '../../client/index.ts';
import { spansFleet, withFleet } from '../fleet.ts';
import { withDaemon } from '../with-daemon.ts';
import { duration } from './parse.ts';
import { globalsOf } from '../globals.ts';
import { UsageError } from '../print-error.ts';

const PAGE = 1000;
/** The kind column is as wide as the longest kind (`workspace.stateChanged`), so every line keeps its columns. */
const KIND_WIDTH = Math.max(...EVENT_KINDS.map((kind) => kind.length));

export function registerEventsCommand(program: Command): void {
  const events = program
    .command('events')
    .description('print retained events (after --since), or stream them live with --follow')
    .option('--since <cursor>', 'start after this cursor (default: the oldest retained; with --follow, now)')
    .option('--follow', 'keep streaming new events until interrupted')
    .option('--filter <expr>', 'field:value terms: kind, pane, agent, workspace, state; e.g. "kind:agent.attention workspace:api state:blocked" (docs/events.md)')
    .option('--fleet', 'every host of the fleet, each event with its host; --since then takes HOST=CURSOR,HOST=CURSOR (default: [fleet] by_default)')
    .option('--no-fleet', 'this machine only, whatever [fleet] by_default says')
    .option('--reconnect <duration>', `with --follow: when the daemon goes away, keep trying to reach it this long and resume from the last cursor, then exit 4 (default ${DEFAULT_RECONNECT_GRACE_MS / 1000}s)`, duration)
    .action(async (options: { since?: string; follow?: boolean; filter?: string; reconnect?: number; fleet?: boolean }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      if (spansFleet(options.fleet)) {
        const since = options.since === undefined ? {} : parseHostCursors(options.since);
        const print = (event: FleetEvent) => process.stdout.write(`${json ? JSON.stringify(event) : `${event.host.padEnd(8)}  ${formatEvent(event)}`}\n`);
        return options.follow ? followFleet(socket, since, options.filter, print) : readFleet(socket, since, options.filter, print);
      }
      const since = options.since === undefined ? undefined : parseCursor(options.since);
      const print = (event: CorralEvent) => process.stdout.write(`${json ? JSON.stringify(event) : formatEvent(event)}\n`);
      const filter = options.filter !== undefined ? { filter: options.filter } : {};
      if (!options.follow) {
        await withDaemon(socket, async (client) => {
          let cursor = since;
          for (;;) {
            const page = await client.call(EVENTS_READ, { ...(cursor !== undefined ? { since: cursor } : {}), ...filter, limit: PAGE });
            page.events.forEach(print);
            cursor = page.cursor;
            if (!page.more) return;
          }
        });
        return;
      }
      await follow(socket, { ...(since !== undefined ? { since } : {}), ...filter, reconnectGraceMs: options.reconnect ?? DEFAULT_RECONNECT_GRACE_MS }, print);
    });

  events
    .command('cursor')
    .description('print the cursor of the last event (0 before any): `corral events --since N` later resumes after it')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const result = await withDaemon(socket, (client) => client.call(EVENTS_CURSOR, {}));
      process.stdout.write(`${json ? JSON.stringify(result) : result.cursor}\n`);
    });
}

/**
 * Streams until SIGINT or SIGTERM (resolves) or until the stream cannot go on (rejects): a cursor no
 * longer retained, or a daemon away past the grace. A daemon that goes away and comes back within it
 * is resumed from the last cursor printed, so no retained event is missed or printed twice.
 */
async function follow(socket: string, options: { since?: number; filter?: string; reconnectGraceMs: number }, print: (event: CorralEvent) => void): Promise<void> {
  await withDaemon(socket, async () => undefined); // the protocol check, and exit 4 when no daemon runs
  const stream = new EventStream(socket, options, (event: AnyCorralEvent) => print(event as CorralEvent), {});
  await streamUntilSignal(stream);
}

/** `box1=120,local=7`: where each host's events start (exclusive). */
function parseHostCursors(text: string): Record<string, number> {
  const cursors: Record<string, number> = {};
  for (const part of text.split(',')) {
    const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)=(\d+)$/.exec(part);
    if (!match) throw new UsageError(`with --fleet, --since takes HOST=CURSOR,HOST=CURSOR (from the host and cursor of the last event seen), not "${text}"`);
    cursors[match[1]!] = parseCursor(match[2]!);
  }
  return cursors;
}

/** Every host's retained events (after its cursor), merged by time; a host that is away is said on stderr and skipped. */
async function readFleet(socket: string, since: Record<string, number>, filter: string | undefined, print: (event: FleetEvent) => void): Promise<void> {
  const events = await withFleet(socket, async (fleet) => {
    const all: FleetEvent[] = [];
    for (const host of fleet.hosts()) {
      if (host.state !== 'connected') {
        process.stderr.write(`corral: host ${host.name} is ${host.state}${host.reason ? ` (${host.reason})` : ''}: its events are left out\n`);
        continue;
      }
      let cursor = since[host.name];
      for (;;) {
        const page = await fleet.callOn(host.name, 'events.read', { ...(cursor !== undefined ? { since: cursor } : {}), ...(filter !== undefined ? { filter } : {}), limit: PAGE });
        all.push(...page.events.map((event) => ({ ...event, host: host.name }) as FleetEvent));
        cursor = page.cursor;
        if (!page.more) break;
      }
    }
    return all;
  });
  events.sort((a, b) => a.ts - b.ts).forEach(print);
}

/** Streams every host's events until SIGINT or SIGTERM; a host that drops resumes from its own cursor when it is back. */
async function followFleet(socket: string, since: Record<string, number>, filter: string | undefined, print: (event: FleetEvent) => void): Promise<void> {
  const cursors = Object.fromEntries(Object.entries(since).map(([host, cursor]) => [host, { cursor, epoch: null }]));
  const fleet = await connectFleet(fleetHosts({ socket }), { since: cursors, onWarning: (message) => process.stderr.write(`corral: ${message}\n`) });
  const tell = (status: HostStatus) => process.stderr.write(`corral: host ${status.name} ${status.state}${status.reason ? ` (${status.reason})` : ''}\n`);
  fleet.hosts().filter((status) => status.state !== 'connected').forEach(tell);
  fleet.onHostChange((status) => {
    if (status.state !== 'connecting') tell(status);
  });
  fleet.subscribe(filter !== undefined ? { filter } : {}, print);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  fleet.close();
}

function parseCursor(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--since must be a cursor (a whole number), not "${text}"`);
  return Number(text);
}

/** One readable line: cursor, local time, kind, pane (a workspace's own event: `@W`), and what happened. */
export function formatEvent(event: CorralEvent): string {
  const time = new Date(event.ts).toTimeString().slice(0, 8) + `.${String(event.ts % 1000).padStart(3, '0')}`;
  const pane = event.pane
    ? event.pane.name
      ? `${event.pane.id} (${event.pane.name})`
      : event.pane.id
    : event.kind === 'workspace.stateChanged'
      ? `@${(event.data as { workspace: string }).workspace}`
      : '-';
  return `${String(event.cursor).padStart(6)}  ${time}  ${event.kind.padEnd(KIND_WIDTH)}  ${pane}  ${describe(event)}`;
}

/** `1 blocked, 2 idle`: a rollup's counts, states with no agent left out. */
function countsText(counts: Record<string, number> | null): string {
  const parts = Object.entries(counts ?? {}).filter(([, count]) => count > 0).map(([state, count]) => `${count} ${state}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function describe(event: CorralEvent): string {
  const e = event as { kind: string; data: any }; // narrowed by kind below
  const d = e.data;
  switch (e.kind) {
    case 'pane.created':
      return d.command;
    case 'pane.exited':
    case 'pane.removed':
      return d.signal !== null ? `signal ${d.signal}` : `exit code ${d.exitCode ?? '-'}`;
    case 'agent.detected':
      return `${d.agent} (was ${d.previous ?? 'none'}), ${d.state} [seq ${d.seq}]`;
    case 'agent.stateChanged':
      return `${d.agent ?? 'no agent'} ${d.from} -> ${d.to} by ${d.rule} (${d.source})${d.seen ? '' : ', unseen'} [seq ${d.seq}]`;
    case 'agent.seen':
      return `${d.agent ?? 'agent'} ${d.state}, ${d.seen ? 'seen' : 'unseen'} [seq ${d.seq}]`;
    case 'agent.released':
      return `${d.agent ?? 'agent'} released, was ${d.state} [seq ${d.seq}]`;
    case 'agent.attention':
      return `${d.agent ?? 'agent'} ${d.state}: ${d.message}${d.title ? ` - ${d.title}` : ''} [seq ${d.seq}]`;
    case 'workspace.stateChanged':
      return `${d.from ?? 'new'} -> ${d.to ?? 'no agent'}${countsText(d.counts)}`;
    case 'inbox.added':
      return `item ${d.item.id}: ${d.item.state} [seq ${d.item.seq}]`;
    case 'inbox.acknowledged':
      return `items ${d.ids.join(', ')} acknowledged`;
    default:
      return JSON.stringify(d);
  }
}
