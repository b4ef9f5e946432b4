import type { RawState } from '../protocol/states.ts';
import { AGENT_ID_PATTERN, REPORT_LIMITS, SOURCE_PATTERN } from './limits.ts';
import type { StoredReport } from './report.ts';
import type { SessionEntry } from './sessions.ts';

/** The part of an arbiter that outlives a daemon restart (see `PaneArbiter.memory()`). */
export interface ArbiterMemory {
  processKey: string;
  generation: number;
  currentSession: string | null;
  sequence: Array<[string, number]>;
  sessions: Array<[string, SessionEntry]>;
  retired: Array<[number, number]>;
  /**
   * The agent's last known state and whether it was seen. Lets a turn that ended while no daemon ran
   * come back done (idle, not seen), and a done pane stay done. Absent in older state files.
   */
  last?: { agent: string; state: RawState; seen: boolean };
  /**
   * The accepted reports of this generation, oldest first: a pane whose agent or state came from a
   * report (a self report, a hook) comes back with them, and the same source. Absent in older files.
   */
  reports?: StoredReport[];
  /** The newest ts accepted per source in this generation, so a replayed older report stays out of order. */
  lastTs?: Array<[string, number]>;
}

/** Reports kept per pane across a restart, the newest; a pane has one per source it heard from. */
export const MAX_REMEMBERED_REPORTS = 64;
/**
 * A remembered report's message (explain's text, never a decision's) is cut to this many characters,
 * so that a pane's share of the state file, rewritten at every change, stays small.
 */
export const REMEMBERED_MESSAGE_CHARS = 256;

const STATES: readonly string[] = ['working', 'idle', 'blocked', 'unknown'];

/** The newest reports by arrival, oldest first, at most MAX_REMEMBERED_REPORTS, messages cut short. */
export function rememberReports(reports: Iterable<StoredReport>): StoredReport[] {
  return [...reports]
    .sort((a, b) => a.arrival - b.arrival)
    .slice(-MAX_REMEMBERED_REPORTS)
    .map((report) => (report.message === undefined ? { ...report } : { ...report, message: report.message.slice(0, REMEMBERED_MESSAGE_CHARS) }));
}

/**
 * The reports of a state file that are well formed and of `generation`; anything else is left out:
 * the file is the daemon's own, but a report taken back must be one the arbiter could have accepted.
 */
export function recallReports(saved: unknown, generation: number): StoredReport[] {
  if (!Array.isArray(saved)) return [];
  const recalled: StoredReport[] = [];
  for (const value of saved.slice(-MAX_REMEMBERED_REPORTS)) {
    const report = recallReport(value, generation);
    if (report !== null) recalled.push(report);
  }
  return recalled;
}

/** The ts watermarks of a state file that are well formed. */
export function recallTimestamps(saved: unknown): Array<[string, number]> {
  if (!Array.isArray(saved)) return [];
  return saved.filter((entry): entry is [string, number] => Array.isArray(entry) && isSource(entry[0]) && Number.isSafeInteger(entry[1]));
}

function recallReport(value: unknown, generation: number): StoredReport | null {
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Record<string, unknown>;
  if (!isSource(r.source) || typeof r.agent !== 'string' || r.agent.length > REPORT_LIMITS.agentChars || !AGENT_ID_PATTERN.test(r.agent)) return null;
  if (typeof r.state !== 'string' || !STATES.includes(r.state)) return null;
  if (r.generation !== generation || typeof r.at !== 'number' || !Number.isFinite(r.at) || !Number.isSafeInteger(r.arrival)) return null;
  const report: StoredReport = { source: r.source, agent: r.agent, state: r.state as RawState, at: r.at, arrival: r.arrival as number, generation };
  if (typeof r.session === 'string' && r.session.length <= REPORT_LIMITS.sessionChars) report.session = r.session;
  if (Number.isSafeInteger(r.seq)) report.seq = r.seq as number;
  if (Number.isSafeInteger(r.ts)) report.ts = r.ts as number;
  if (typeof r.message === 'string' && r.message.length <= REPORT_LIMITS.messageChars) report.message = r.message;
  if (isPid(r.pid)) report.pid = r.pid;
  if (r.ended === true) report.ended = true;
  if (isPid(r.group)) report.group = r.group;
  return report;
}

function isSource(value: unknown): value is string {
  return typeof value === 'string' && value.length <= REPORT_LIMITS.sourceChars && SOURCE_PATTERN.test(value);
}

function isPid(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
