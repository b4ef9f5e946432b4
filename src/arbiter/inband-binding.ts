import type { Report, StoredReport } from './report.ts';
import type { ProcessObservation, ProcessTree } from './types.ts';

/**
 * Which in-band reports (OSC 1337 user variables, OSC 7501) count (docs/reporting.md):
 * - `group` (default): each is bound to the process group that held the pane's terminal when its bytes
 *   were parsed, and stops counting when that group leaves the foreground; none is bound to a
 *   job-control shell at its prompt;
 * - `foreground`: as `group`, and only those naming the pane's identified agent with the pid of its
 *   process or of the foreground group leader;
 * - `any`: every one, from whatever program printed it (`cat` of a file included).
 */
export const INBAND_POLICIES = ['group', 'foreground', 'any'] as const;
export type InbandPolicy = (typeof INBAND_POLICIES)[number];

/** The group an in-band report is bound to (null: none, it counts wherever the foreground goes), or why it does not count. */
export type InbandBinding = { ok: true; group: number | null } | { ok: false; detail: string };

export interface InbandContext {
  policy: InbandPolicy;
  /** The foreground as of the moment the report's bytes were parsed. */
  process: ProcessObservation;
  tree: ProcessTree;
  canonicalAgent: (agent: string) => string;
}

/**
 * In-band reports are bytes in the pane's output: the kernel does not say who wrote them. The closest
 * it tells is which process group held the terminal when they were parsed. A job-control shell holds
 * it only at its prompt, after its job ended: bytes parsed then came from that job (`cat` of a file
 * that exited before its output was read) or from a background job, never from a foreground program.
 */
export function bindInband(report: Report, context: InbandContext): InbandBinding {
  if (context.policy === 'any') return { ok: true, group: null };
  const { process, tree } = context;
  const leader = process.leaderPid;
  if (process.observable && leader !== null && tree.isJobControlShell?.(leader) === true) {
    return { ok: false, detail: `the foreground is the shell (pid ${leader}) at its prompt: the program that printed this report has left the foreground or runs in the background` };
  }
  if (context.policy === 'foreground') {
    const unbound = unboundToAgent(report, context);
    if (unbound !== null) return { ok: false, detail: unbound };
  }
  return { ok: true, group: process.observable && typeof process.pgid === 'number' ? process.pgid : null };
}

/** Whether a bound in-band report's group no longer holds the terminal under this observation. */
export function groupLeft(report: StoredReport, process: ProcessObservation): boolean {
  return report.group !== undefined && report.group !== (process.observable ? (process.pgid ?? null) : null);
}

/** Under `foreground`: why a report does not name the identified agent with its foreground pid (null when it does). */
function unboundToAgent(report: Report, { process, canonicalAgent }: InbandContext): string | null {
  const { agent, agentPid, leaderPid } = process;
  if (agent === null) return 'in-band reports count only for an identified agent (reports.inband = "foreground")';
  if (canonicalAgent(report.agent) !== agent) return `the report names ${report.agent}, the foreground runs ${agent}`;
  if (report.pid === undefined || (report.pid !== agentPid && report.pid !== leaderPid)) {
    return `the report must carry the pid of the foreground ${agent} (${agentPid ?? leaderPid}), got ${report.pid ?? 'none'}`;
  }
  return null;
}
