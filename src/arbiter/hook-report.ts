import { isRawState } from '../protocol/states.ts';
import { AGENT_ID_PATTERN, REPORT_LIMITS, SOURCE_PATTERN } from './limits.ts';
import { RESERVED_SOURCES, type Report } from './report.ts';
import type { RejectReason } from './types.ts';

/** `pane.reportAgent` params without the target: a hook's report of its agent's state. */
export interface AgentReportParams {
  source: string;
  agent: string;
  state: string;
  session?: string;
  seq?: number;
  /** Unix seconds when the hook ran. */
  ts?: number;
  message?: string;
  /** The reporter's pid as the kernel knows it (the daemon fills it in from the socket). */
  pid?: number;
  /** The pid the reporter wrote, when it differs from `pid` the report is refused (`pid_mismatch`). */
  declaredPid?: number;
}

/** `pane.releaseAgent` params without the target: the source's session ended. */
export interface ReleaseParams {
  source: string;
  session?: string;
  pid?: number;
  declaredPid?: number;
}

/** `pane.reportSession` params without the target: session identity only, no state. */
export interface SessionReportParams {
  source: string;
  agent?: string;
  session: string;
  pid?: number;
  declaredPid?: number;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: RejectReason; detail: string };

/** Validates a hook's report; hook states are working, idle or blocked only. */
export function checkAgentReport(params: AgentReportParams): Checked<Report> {
  const common = checkCommon(params);
  if (!common.ok) return common;
  if (!checkAgent(params.agent)) return invalid('agent must be a short identifier like my-agent');
  if (params.state === 'unknown' || !isRawState(params.state)) {
    return invalid(`state must be working, idle or blocked, got '${String(params.state).slice(0, 16)}'`);
  }
  if (params.seq !== undefined && !(Number.isSafeInteger(params.seq) && params.seq >= 0)) {
    return invalid('seq must be a non-negative integer');
  }
  if (params.ts !== undefined && !(Number.isFinite(params.ts) && params.ts >= 0)) {
    return invalid('ts must be unix seconds');
  }
  if (params.message !== undefined && (typeof params.message !== 'string' || params.message.length > REPORT_LIMITS.messageChars)) {
    return invalid(`message must be a string of at most ${REPORT_LIMITS.messageChars} characters`);
  }
  const report: Report = { source: params.source, agent: params.agent, state: params.state };
  if (params.session !== undefined) report.session = params.session;
  if (params.seq !== undefined) report.seq = params.seq;
  if (params.ts !== undefined) report.ts = params.ts;
  if (params.message !== undefined) report.message = params.message;
  if (params.pid !== undefined) report.pid = params.pid;
  return { ok: true, value: report };
}

export function checkRelease(params: ReleaseParams): Checked<ReleaseParams> {
  const common = checkCommon(params);
  return common.ok ? { ok: true, value: params } : common;
}

export function checkSessionReport(params: SessionReportParams): Checked<SessionReportParams> {
  const common = checkCommon(params);
  if (!common.ok) return common;
  if (params.session === undefined) return invalid('session is required');
  if (params.agent !== undefined && !checkAgent(params.agent)) return invalid('agent must be a short identifier');
  return { ok: true, value: params };
}

function checkCommon(params: { source: string; session?: string; pid?: number; declaredPid?: number }): Checked<null> {
  if (typeof params.source !== 'string' || params.source.length > REPORT_LIMITS.sourceChars || !SOURCE_PATTERN.test(params.source)) {
    return invalid(`source must be a label like hook:my-agent of at most ${REPORT_LIMITS.sourceChars} characters`);
  }
  if (RESERVED_SOURCES.includes(params.source)) {
    return { ok: false, reason: 'reserved_source', detail: `source '${params.source}' is reserved for in-band reports` };
  }
  if (params.session !== undefined && (typeof params.session !== 'string' || params.session.length === 0 || params.session.length > REPORT_LIMITS.sessionChars)) {
    return invalid(`session must be a non-empty string of at most ${REPORT_LIMITS.sessionChars} characters`);
  }
  if (params.pid !== undefined && !(Number.isSafeInteger(params.pid) && params.pid > 0)) {
    return invalid('pid must be a positive integer');
  }
  if (params.declaredPid !== undefined && params.pid !== undefined && params.declaredPid !== params.pid) {
    return { ok: false, reason: 'pid_mismatch', detail: `the report says pid ${params.declaredPid}, the socket's peer is pid ${params.pid}` };
  }
  return { ok: true, value: null };
}

function checkAgent(agent: unknown): boolean {
  return typeof agent === 'string' && agent.length <= REPORT_LIMITS.agentChars && AGENT_ID_PATTERN.test(agent);
}

function invalid(detail: string): { ok: false; reason: 'invalid_report'; detail: string } {
  return { ok: false, reason: 'invalid_report', detail };
}
