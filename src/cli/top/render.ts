import type { AgentInfo } from '../../protocol/methods/agent.ts';
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
const GAP = 2;
const MARKER_W = 1; // '>' on the selected row when there is no colour
const NAME_MIN = 8;
const NAME_MAX = 24;
const TITLE_MIN = 10;
/** Header lines above the rows and the key line below them. */
const CHROME_LINES = 3;

/** Cuts to width, marking the cut with an ellipsis; pads to width. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...text.replace(/[\x00-\x1f\x7f]/g, ' ')];
  if (chars.length <= width) return chars.join('').padEnd(width);
  return `${chars.slice(0, width - 1).join('')}…`;
}

/** Whole seconds at least: top's clock ticks once a second. */
function ageOf(ms: number): string {
  return ms < 1000 ? '0s' : formatAge(ms);
}

function labelOf(info: AgentInfo): string {
  return info.name ?? info.id;
}

/** Widths of the name and title columns: the title shrinks first, then the name, down to its minimum. */
export function columnWidths(cols: number, rows: readonly AgentInfo[]): { name: number; title: number } {
  const fixed = MARKER_W + STATE_W + AGE_W + AGENT_W + QUEUED_W + GAP * 5;
  const wanted = Math.min(NAME_MAX, Math.max(4, ...rows.map((row) => [...labelOf(row)].length)));
  const room = Math.max(0, cols - fixed);
  if (room - wanted >= TITLE_MIN) return { name: wanted, title: room - wanted };
  const name = Math.max(Math.min(wanted, NAME_MIN), room - TITLE_MIN);
  return { name: Math.min(name, room), title: Math.max(0, room - name) };
}

function summary(rows: readonly AgentInfo[]): string {
  const counts = ATTENTION_ORDER.map((state) => [state, rows.filter((row) => row.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const noun = rows.length === 1 ? 'agent' : 'agents';
  return `corral top: ${rows.length} ${noun}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}${workspaceRollup(rows)}`;
}

/** Once panes live in workspaces of their own: each workspace with its most pressing state (ROLLUP_ORDER). */
function workspaceRollup(rows: readonly AgentInfo[]): string {
  const workspaces = [...new Set(rows.map((row) => row.workspace))];
  if (workspaces.length === 0 || (workspaces.length === 1 && workspaces[0] === 'w1')) return '';
  const states = workspaces.map((w) => `${w} ${ROLLUP_ORDER.find((state) => rows.some((row) => row.workspace === w && row.state === state)) ?? 'unknown'}`);
  return `  [${states.join(', ')}]`;
}

/** One frame of `corral top` as lines, each at most `cols` wide (escape sequences aside). */
export function renderFrame(rows: readonly AgentInfo[], options: FrameOptions): string[] {
  const { cols, color } = options;
  const widths = columnWidths(cols, rows);
  const paint = (sgr: string, text: string) => (color ? `\x1b[${sgr}m${text}\x1b[0m` : text);
  const line = (cells: string[]) => cells.join(' '.repeat(GAP)).trimEnd();
  const header = ` ${line([
    fit('STATE', STATE_W),
    fit('AGE', AGE_W),
    fit('AGENT', AGENT_W),
    fit('NAME', widths.name),
    fit('TITLE', widths.title),
    'Q'.padStart(QUEUED_W),
  ].filter((cell) => cell !== ''))}`;
  const lines = [fit(summary(rows), cols).trimEnd(), paint('1', header)];
  const visible = Math.max(1, options.height - CHROME_LINES - (options.status ? 1 : 0));
  const first = options.selected >= visible ? options.selected - visible + 1 : 0;
  rows.slice(first, first + visible).forEach((row, i) => {
    const state = fit(row.state, STATE_W);
    const rest = [
      fit(ageOf(options.now - row.stateSince), AGE_W),
      fit(row.agent ?? '-', AGENT_W),
      fit(labelOf(row), widths.name),
      // A blocked agent's question says more than its title.
      fit(row.state === 'blocked' && row.prompt ? questionLine(row.prompt) : (row.title ?? ''), widths.title),
      (row.queued > 0 ? String(row.queued) : '').padStart(QUEUED_W),
    ].filter((cell) => cell !== '');
    const selected = first + i === options.selected;
    const tail = `${' '.repeat(GAP)}${line(rest)}`;
    if (!color) lines.push(`${selected ? '>' : ' '}${state}${tail}`.trimEnd());
    else if (selected) lines.push(`\x1b[7m ${state}${tail.padEnd(cols - MARKER_W - STATE_W)}\x1b[0m`);
    else lines.push(` ${paint(SGR[row.state], state)}${tail}`.trimEnd());
  });
  if (rows.length === 0) lines.push('  no agents yet: start one with `corral pane spawn`');
  if (options.status) lines.push(fit(options.status, cols).trimEnd());
  return lines;
}

export const KEY_HELP = '↑↓/jk move  enter/a attach  f focus  q quit';
