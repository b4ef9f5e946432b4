import { needsYou, qualify, rollupOf, type HostState, type Rollup } from '../../client/index.ts';
import type { HostGroup } from './fleet-rows.ts';
import { ageOf, firstShown, fit, headerLine, rowLine, rowsRoom, tableLayout } from './render.ts';
import { ATTENTION_ORDER } from './rows.ts';

export interface FleetFrameOptions {
  cols: number;
  height: number;
  now: number;
  /** The selected row as `ID@HOST`, or null for none. */
  selected: string | null;
  color: boolean;
  status?: string;
  /** A warning about a host, kept above the status line. */
  notice?: string;
}

/** A status line may wrap: the command that attaches a pane of another host is longer than a terminal is wide. */
const STATUS_MAX_LINES = 4;
const NOTICE_MAX_LINES = 2;

/** The text in lines of at most `cols` characters, broken at spaces where it can; at most `max` lines, the last cut with an ellipsis. */
function wrap(text: string, cols: number, max: number): string[] {
  let rest = [...text];
  const lines: string[] = [];
  while (rest.length > 0 && lines.length < max - 1) {
    if (rest.length <= cols) break;
    const space = rest.lastIndexOf(' ', cols);
    const cut = space > 0 ? space : cols;
    lines.push(fit(rest.slice(0, cut).join(''), cols).trimEnd());
    rest = rest.slice(space > 0 ? cut + 1 : cut);
  }
  if (rest.length > 0) lines.push(fit(rest.join(''), cols).trimEnd());
  return lines;
}

const HOST_SGR: Record<HostState, string> = {
  connected: '1', // bold
  connecting: '33', // yellow
  offline: '1;31', // bold red
};

/** `1 blocked, 2 idle`, in attention order; empty for no agents. */
function countsText(rollup: Rollup): string {
  return ATTENTION_ORDER.filter((state) => rollup.counts[state] > 0)
    .map((state) => `${rollup.counts[state]} ${state}`)
    .join(', ');
}

function needsText(n: number): string {
  return n > 0 ? `, ${n} need${n === 1 ? 's' : ''} you` : '';
}

/** The top line: the fleet's agents, its hosts, and its one "needs you" count (blocked or done, as `agent list --fleet` counts). */
function fleetSummary(groups: readonly HostGroup[]): string {
  const all = rollupOf(groups.flatMap((group) => group.agents));
  const total = groups.reduce((sum, group) => sum + group.agents.length, 0);
  const counts = countsText(all);
  const away = groups.filter((group) => group.status.state !== 'connected').length;
  const hosts = `${groups.length} host${groups.length === 1 ? '' : 's'}`;
  // What a person acts on comes before the counts, which a narrow terminal cuts first (each host's line has its own).
  return `corral top: ${total} agent${total === 1 ? '' : 's'} on ${hosts}${needsText(all.needsYou)}${away > 0 ? `, ${away} host${away === 1 ? '' : 's'} away` : ''}${counts ? ` (${counts})` : ''}`;
}

/** A host's heading: its state (with since when, when it is not connected) and its rollup. */
function hostLine(group: HostGroup, now: number): string {
  const { status, rollup } = group;
  const state = status.state === 'connected' ? 'connected' : `${status.state} ${ageOf(now - status.since)}`;
  const counts = countsText(rollup) || 'no agents';
  const stale = rollup.stale > 0 ? `, ${rollup.stale} stale` : '';
  return `${status.name}: ${state}; ${counts}${stale}${needsText(rollup.needsYou)}`;
}

/** Why a host is away gets lines of its own under its heading: ssh's own words come last in it (ssh-endpoint.ts). */
const REASON_MAX_LINES = 3;

/**
 * One frame of `corral top --fleet`: the fleet's summary, the column names, then each host in the
 * fleet's order, its heading line and its agents in attention order. Rows past the screen are cut,
 * keeping the selection in view. Each line is at most `cols` wide (escape sequences aside).
 */
export function renderFleetFrame(groups: readonly HostGroup[], options: FleetFrameOptions): string[] {
  const { cols, color, now } = options;
  const layout = tableLayout(cols, groups.flatMap((group) => group.agents));
  const body: { text: string; id?: string }[] = [];
  for (const group of groups) {
    const heading = fit(hostLine(group, now), cols).trimEnd();
    body.push({ text: color ? `\x1b[${HOST_SGR[group.status.state]}m${heading}\x1b[0m` : heading });
    if (group.status.state !== 'connected' && group.status.reason) {
      for (const line of wrap(group.status.reason, cols - 2, REASON_MAX_LINES)) body.push({ text: `  ${line}` });
    }
    for (const info of group.agents) {
      const id = qualify(info.id, group.status.name);
      const look = { now, color, selected: id === options.selected, needs: needsYou(info.state), stale: info.stale };
      body.push({ text: rowLine(info, layout, look), id });
    }
  }
  const status = [...(options.notice ? wrap(options.notice, cols, NOTICE_MAX_LINES) : []), ...(options.status ? wrap(options.status, cols, STATUS_MAX_LINES) : [])];
  const visible = rowsRoom(options.height, status.length);
  const first = firstShown(body.findIndex((line) => line.id !== undefined && line.id === options.selected), visible);
  const lines = [fit(fleetSummary(groups), cols).trimEnd(), headerLine(layout, color), ...body.slice(first, first + visible).map((line) => line.text)];
  lines.push(...status);
  return lines;
}
