import type { RawState } from '../protocol/states.ts';
import type { ProgramStatus } from '../terminal/types.ts';
import { AGENT_ID_PATTERN, REPORT_LIMITS } from './limits.ts';
import { PROGRAM_STATUS_SOURCE, SELF_REPORT_SOURCE, type Report } from './report.ts';

/** User variable names carrying a self report (`OSC 1337 ; SetUserVar=<name>=<base64>`). */
export const SELF_REPORT_VARIABLES: readonly string[] = ['THINKTERM_AGENT', 'CORRAL_AGENT'];

export type SelfReportParse =
  | { ok: true; report: Report }
  | { ok: false; reason: 'unknown_version' | 'invalid_report'; detail: string };

const REPORTED_STATES: readonly string[] = ['working', 'idle', 'blocked'];

/**
 * Parses a decoded self-report value, grammar v1 (seed 000):
 * `v1;agent=<id>;state=<working|idle|blocked>[;session=<id>][;pid=<n>][;ts=<unix-seconds>][;ended=1]`.
 * Unknown keys are ignored; an unknown major version is ignored whole.
 */
export function parseSelfReport(value: string): SelfReportParse {
  if (value.length > REPORT_LIMITS.selfReportChars) {
    return { ok: false, reason: 'invalid_report', detail: `longer than ${REPORT_LIMITS.selfReportChars} characters` };
  }
  const [version = '', ...pairs] = value.split(';');
  const major = /^v(\d+)(?:\.\d+)*$/.exec(version.trim());
  if (!major) return { ok: false, reason: 'invalid_report', detail: `no version token, got '${version.slice(0, 16)}'` };
  if (major[1] !== '1') return { ok: false, reason: 'unknown_version', detail: `version ${version} is not 1` };

  const fields = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    fields.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  const agent = fields.get('agent') ?? '';
  if (agent.length === 0 || agent.length > REPORT_LIMITS.agentChars || !AGENT_ID_PATTERN.test(agent)) {
    return { ok: false, reason: 'invalid_report', detail: 'agent is missing or not a short identifier' };
  }
  const reported = fields.get('state');
  if (reported === undefined) return { ok: false, reason: 'invalid_report', detail: 'state is missing' };

  const report: Report = { source: SELF_REPORT_SOURCE, agent, state: toRawState(reported) };
  const session = fields.get('session');
  if (session && session.length <= REPORT_LIMITS.sessionChars) report.session = session;
  const pid = parseWhole(fields.get('pid'));
  if (pid !== undefined && pid > 0) report.pid = pid;
  const ts = parseWhole(fields.get('ts'));
  if (ts !== undefined) report.ts = ts;
  if (fields.get('ended') === '1') report.ended = true;
  return { ok: true, report };
}

function toRawState(reported: string): RawState {
  return REPORTED_STATES.includes(reported) ? (reported as RawState) : 'unknown';
}

function parseWhole(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Reads an OSC 7501 program status as a self report of the foreground program. `done` and `error`
 * end a turn, so both are idle; `clear` withdraws the report and is returned as 'clear'.
 * The agent is the `app` field, else the pane's live agent; null when neither names one.
 */
export function programStatusReport(status: ProgramStatus, liveAgent: string | null): Report | 'clear' | null {
  if (status.state === 'clear') return 'clear';
  const app = status.fields['app'];
  const agent = app !== undefined && AGENT_ID_PATTERN.test(app) && app.length <= REPORT_LIMITS.agentChars ? app : liveAgent;
  if (agent === null) return null;
  const state: RawState = status.state === 'done' || status.state === 'error' ? 'idle' : status.state;
  const report: Report = { source: PROGRAM_STATUS_SOURCE, agent, state };
  const pid = parseWhole(status.fields['pid']);
  if (pid !== undefined && pid > 0) report.pid = pid;
  return report;
}
