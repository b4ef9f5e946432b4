import { fitToCells, textCells } from '../../base/cells.ts';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { agentOf, titleOf, tokensOf } from '../display.ts';
import { usageCell } from '../commands/usage-format.ts';
import type { AgentState } from '../../protocol/states.ts';
import { formatAge } from '../commands/format.ts';
import { questionLine } from '../commands/prompt-format.ts';
import { ATTENTION_ORDER } from './rows.ts';
import { ROLLUP_ORDER } from '../../protocol/methods/agent-query.ts';

export interface FrameOptions {
  cols: number;
  /** Terminal rows; rows past the screen are cut, keeping the selection in view. */
  height: number;
  now: number;
  /** Index into the sorted rows, or -1 for none. */
  selected: number;
  color: boolean;
  /** A transient line under the table (an error, a hint). */
  status?: string;
  /** Pane ids whose agent needs the person (`needsYou`: blocked, or done unseen): marked `*` and counted. */
  needing?: ReadonlySet<string>;
  /** The approval policy when one is loaded (`on`, `dry-run`, `paused`): said on the top line. */
  policy?: string | null;
}

const SGR: Record<AgentState, string> = {
  blocked: '31', // red
  working: '33', // yellow
  done: '1;32', // bold green
  idle: '2', // dim
  unknown: '90', // grey
};

const STATE_W = 7;
const AGE_W = 5;
const AGENT_W = 8;
const QUEUED_W = 3;
const TOKENS_W = 6;
/** `12.3M $123.45 !100%`: an agent's spend read from its own record, and the budget share it stands at (docs/usage.md). */
const USAGE_W = 19;
const WORKSPACE_MAX = 12;
const GAP = 2;
const MARKER_W = 1; // '>' on the selected row when there is no colour, '*' on a row that needs you
const NAME_MIN = 8;
const NAME_MAX = 24;
const TITLE_MIN = 10;
/** Header lines above the rows and the key line below them. */
const CHROME_LINES = 3;

/** Cuts to `width` cells, marking the cut with an ellipsis; pads to width. Wide characters take two cells, as on the screen. */
export function fit(text: string, width: number): string {
  return fitToCells(text.replace(/[\x00-\x1f\x7f]/g, ' '), width);
}

/** Whole seconds at least: top's clock ticks once a second. */
export function ageOf(ms: number): string {
  return ms < 1000 ? '0s' : formatAge(ms);
}

function labelOf(info: AgentInfo): string {
  return info.name ?? info.id;
}

/** The optional columns a set of rows needs: a workspace column once they are not all in w1, tokens once any reported them. */
export function optionalColumns(rows: readonly AgentInfo[]): { workspace: number; tokens: number; usage: number } {
  const workspaces = new Set(rows.map((row) => row.workspace));
  const spread = workspaces.size > 1 || (workspaces.size === 1 && !workspaces.has('w1'));
  return {
    workspace: spread ? Math.min(WORKSPACE_MAX, Math.max(2, ...[...workspaces].map((w) => textCells(w)))) : 0,
    tokens: rows.some((row) => tokensOf(row) !== '') ? TOKENS_W : 0,
    usage: rows.some((row) => typeof row.usage === 'object') ? USAGE_W : 0,
  };
}

/**
 * Widths of the name and title columns. With room, the name shows whole; else it keeps up to
 * NAME_MAX while the title takes what it needs, then takes what is left; on a narrow terminal the title
 * shrinks first, then the name, down to its minimum.
 */
export function columnWidths(cols: number, rows: readonly AgentInfo[]): { name: number; title: number } {
  const extra = optionalColumns(rows);
  const fixed = MARKER_W + STATE_W + AGE_W + AGENT_W + QUEUED_W + GAP * 5 + [extra.workspace, extra.tokens, extra.usage].reduce((sum, w) => sum + (w > 0 ? w + GAP : 0), 0);
  const wanted = Math.max(4, ...rows.map((row) => textCells(labelOf(row))));
  const titleWanted = Math.max(TITLE_MIN, ...rows.map((row) => textCells(titleOf(row))));
  const room = Math.max(0, cols - fixed);
  if (room - wanted >= titleWanted) return { name: wanted, title: room - wanted };
  const first = Math.min(wanted, NAME_MAX);
  if (room - first >= titleWanted) return { name: room - titleWanted, title: titleWanted };
  if (room - first >= TITLE_MIN) return { name: first, title: room - first };
  const name = Math.max(Math.min(wanted, NAME_MIN), Math.min(first, room - TITLE_MIN));
  return { name: Math.min(name, room), title: Math.max(0, room - name) };
}

function summary(rows: readonly AgentInfo[], needing: number): string {
  const counts = ATTENTION_ORDER.map((state) => [state, rows.filter((row) => row.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const noun = rows.length === 1 ? 'agent' : 'agents';
  const needs = needing > 0 ? `, ${needing} need${needing === 1 ? 's' : ''} you` : '';
  return `corral top: ${rows.length} ${noun}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}${needs}${workspaceRollup(rows)}`;
}

/** Once panes live in workspaces of their own: each workspace with its most pressing state (ROLLUP_ORDER). */
function workspaceRollup(rows: readonly AgentInfo[]): string {
  const workspaces = [...new Set(rows.map((row) => row.workspace))];
  if (workspaces.length === 0 || (workspaces.length === 1 && workspaces[0] === 'w1')) return '';
  const states = workspaces.map((w) => `${w} ${ROLLUP_ORDER.find((state) => rows.some((row) => row.workspace === w && row.state === state)) ?? 'unknown'}`);
  return `  [${states.join(', ')}]`;
}

/** The columns of a set of rows at a width: the optional ones they need and the name and title widths. */
export interface TableLayout {
  cols: number;
  widths: { name: number; title: number };
  extra: { workspace: number; tokens: number; usage: number };
}

export function tableLayout(cols: number, rows: readonly AgentInfo[]): TableLayout {
  return { cols, widths: columnWidths(cols, rows), extra: optionalColumns(rows) };
}

function paint(color: boolean, sgr: string, text: string): string {
  return color ? `\x1b[${sgr}m${text}\x1b[0m` : text;
}

function cellsLine(cells: string[]): string {
  return cells.filter((cell) => cell !== '').join(' '.repeat(GAP)).trimEnd();
}

/** The column names, over the marker column. */
export function headerLine(layout: TableLayout, color: boolean): string {
  const { widths, extra } = layout;
  const header = ` ${cellsLine([
    fit('STATE', STATE_W),
    fit('AGE', AGE_W),
    fit('AGENT', AGENT_W),
    extra.workspace > 0 ? fit('WS', extra.workspace) : '',
    fit('NAME', widths.name),
    fit('TITLE', widths.title),
    extra.tokens > 0 ? 'TOKENS'.padStart(extra.tokens) : '',
    extra.usage > 0 ? fit('SPENT', extra.usage) : '',
    'Q'.padStart(QUEUED_W),
  ])}`;
  return paint(color, '1', header);
}

export interface RowLook {
  now: number;
  color: boolean;
  selected: boolean;
  /** Marked `*`: the agent needs the person. */
  needs: boolean;
  /** Its host is away: the state is the last known, painted grey and said in the title. */
  stale?: boolean;
}

/** One agent's row: marker, state, then the columns of the layout. */
export function rowLine(row: AgentInfo, layout: TableLayout, look: RowLook): string {
  const { widths, extra, cols } = layout;
  const { color, selected, needs } = look;
  const state = fit(row.state, STATE_W);
  // A blocked agent's question says more than its title.
  const title = row.state === 'blocked' && row.prompt ? questionLine(row.prompt) : titleOf(row);
  const rest = cellsLine([
    fit(ageOf(look.now - row.stateSince), AGE_W),
    fit(agentOf(row), AGENT_W),
    extra.workspace > 0 ? fit(row.workspace, extra.workspace) : '',
    fit(labelOf(row), widths.name),
    fit(look.stale ? `(stale) ${title}` : title, widths.title),
    extra.tokens > 0 ? tokensOf(row).padStart(extra.tokens) : '',
    extra.usage > 0 ? fit(usageCell(row.usage), extra.usage) : '',
    (row.queued > 0 ? String(row.queued) : '').padStart(QUEUED_W),
  ]);
  const tail = `${' '.repeat(GAP)}${rest}`;
  if (!color) return `${selected ? '>' : needs ? '*' : ' '}${state}${tail}`.trimEnd();
  if (selected) return `\x1b[7m${needs ? '*' : ' '}${state}${tail}${' '.repeat(Math.max(0, cols - MARKER_W - STATE_W - textCells(tail)))}\x1b[0m`;
  return `${needs ? paint(color, '1;31', '*') : ' '}${paint(color, look.stale ? SGR.unknown : SGR[row.state], state)}${tail}`.trimEnd();
}

/** The first of `count` lines to show in `visible` lines so that line `selected` (or -1) is in view. */
export function firstShown(selected: number, visible: number): number {
  return selected >= visible ? selected - visible + 1 : 0;
}

/** Lines for rows under the header and above the key line, with `statusLines` lines of status under them. */
export function rowsRoom(height: number, statusLines: number): number {
  return Math.max(1, height - CHROME_LINES - statusLines);
}

/** One frame of `corral top` as lines, each at most `cols` wide (escape sequences aside). */
export function renderFrame(rows: readonly AgentInfo[], options: FrameOptions): string[] {
  const { cols, color } = options;
  const layout = tableLayout(cols, rows);
  const needing = options.needing ?? new Set<string>();
  const policy = options.policy ? `, policy ${options.policy}` : '';
  const lines = [fit(`${summary(rows, rows.filter((row) => needing.has(row.id)).length)}${policy}`, cols).trimEnd(), headerLine(layout, color)];
  const visible = rowsRoom(options.height, options.status ? 1 : 0);
  const first = firstShown(options.selected, visible);
  rows.slice(first, first + visible).forEach((row, i) => {
    lines.push(rowLine(row, layout, { now: options.now, color, selected: first + i === options.selected, needs: needing.has(row.id) }));
  });
  if (rows.length === 0) lines.push('  no agents yet: start one with `corral pane spawn`');
  if (options.status) lines.push(fit(options.status, cols).trimEnd());
  return lines;
}

export const KEY_HELP = '↑↓/jk move  enter/a attach  f focus  q quit';
