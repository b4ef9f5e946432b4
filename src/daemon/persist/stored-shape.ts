import type { ArbiterMemory } from '../../arbiter/index.ts';
import { PANE_LIFECYCLES, type PaneLifecycle } from '../../protocol/methods/pane.ts';
import { isPaneSize } from '../../protocol/pane-size.ts';
import { isPlainObject } from '../../protocol/plain-object.ts';
import type { PaneIdentity } from '../panes/pane-record.ts';
import { STATE_FILE_VERSION } from '../private-file.ts';

/** One pane as the state file keeps it: what makes it that pane, then what it ran with and last knew. */
export interface StoredPane extends PaneIdentity {
  /** The environment the spawn asked for, without secrets (see secrets.ts). */
  env: Record<string, string>;
  /** The names of the keys left out of `env` as secrets; absent when none were. */
  droppedEnv?: string[];
  cols: number;
  rows: number;
  createdAt: number;
  pid: number;
  state: PaneLifecycle;
  agent: string | null;
  agentState: string;
  session: string | null;
  arbiter: ArbiterMemory | null;
  /** false: the pane was started with `--no-integrate`. */
  integrate?: false;
}

export interface StoredState {
  version: number;
  socket: string;
  savedAt: number;
  /** The next pane number, so that no id is reused across restarts. */
  nextPane: number;
  panes: StoredPane[];
}

/** The state file's panes that can be used, and what was wrong with the rest (one line each). */
interface CheckedState {
  state: StoredState;
  problems: string[];
}

/**
 * Checks a parsed state file field by field, since a lost pane is listed and respawned from it: a
 * wrong type would otherwise surface later as a crash. A top level of another version or shape is
 * refused whole (a string); a pane that is wrong, or repeats another's id or name, is left out.
 */
export function checkStoredState(value: unknown): CheckedState | string {
  if (!isPlainObject(value)) return 'the top level is not a JSON object';
  if (value.version !== STATE_FILE_VERSION) return `version ${typeof value.version === 'number' ? value.version : `of type ${typeof value.version}`}; this daemon reads version ${STATE_FILE_VERSION}`;
  if (!Number.isSafeInteger(value.nextPane) || (value.nextPane as number) < 1) return '"nextPane" is not a positive integer';
  if (!Array.isArray(value.panes)) return '"panes" is not an array';
  const problems: string[] = [];
  const panes: StoredPane[] = [];
  const ids = new Set<string>();
  const names = new Set<string>();
  value.panes.forEach((pane: unknown, index: number) => {
    const problem = paneProblem(pane) ?? repeated(pane as StoredPane, ids, names);
    if (problem !== null) {
      problems.push(`panes[${index}]: ${problem}`);
      return;
    }
    const stored = pane as StoredPane;
    ids.add(stored.id);
    if (stored.name !== null) names.add(stored.name);
    panes.push(stored);
  });
  return { state: { version: STATE_FILE_VERSION, socket: String(value.socket), savedAt: Number(value.savedAt), nextPane: value.nextPane as number, panes }, problems };
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringOrNull = (value: unknown) => value === null || isString(value);

/** A pane's name and its workspace's, as `pane.spawn` takes them (src/protocol/methods/pane.ts). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const isName = (value: unknown): value is string => isString(value) && NAME.test(value);

const FIELDS: Array<[keyof StoredPane, (value: unknown) => boolean, string]> = [
  ['workspace', isName, 'a workspace name'],
  ['id', (v) => isString(v) && /^[^:]+:p\d{1,9}$/.test(v), 'a pane id such as "w1:p3"'],
  ['name', (v) => v === null || isName(v), 'a pane name or null'],
  ['command', (v) => isString(v) && v.length > 0, 'a command'],
  ['args', (v) => Array.isArray(v) && v.every(isString), 'an array of strings'],
  ['cwd', isString, 'a string'],
  ['env', (v) => isPlainObject(v) && Object.values(v).every(isString), 'an object of strings'],
  ['createdAt', (v) => Number.isFinite(v), 'a number'],
  ['pid', (v) => Number.isSafeInteger(v), 'an integer'],
  ['state', (v) => (PANE_LIFECYCLES as readonly unknown[]).includes(v), PANE_LIFECYCLES.join(', ')],
  ['agent', isStringOrNull, 'a string or null'],
  ['agentState', isString, 'a string'],
  ['session', isStringOrNull, 'a string or null'],
  ['arbiter', (v) => v === null || isPlainObject(v), 'an object or null'],
];

function paneProblem(pane: unknown): string | null {
  if (!isPlainObject(pane)) return 'not an object';
  for (const [field, valid, expected] of FIELDS) {
    if (!valid(pane[field])) return `"${field}" is not ${expected}`;
  }
  if (!(pane.id as string).startsWith(`${pane.workspace as string}:p`)) return `"id" ${pane.id as string} is not of its workspace ${pane.workspace as string}`;
  if (!isPaneSize(pane.cols as number, pane.rows as number)) return '"cols" and "rows" are not a pane size';
  if (pane.integrate !== undefined && pane.integrate !== false) return '"integrate" is neither false nor absent';
  if (pane.droppedEnv !== undefined && !(Array.isArray(pane.droppedEnv) && pane.droppedEnv.every(isString))) return '"droppedEnv" is not an array of strings';
  return null;
}

function repeated(pane: StoredPane, ids: Set<string>, names: Set<string>): string | null {
  if (ids.has(pane.id)) return `repeats the id ${pane.id}`;
  if (pane.name !== null && names.has(pane.name)) return `repeats the name ${pane.name}`;
  return null;
}
