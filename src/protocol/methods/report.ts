import { defineMethod, returns } from '../method.ts';
import { int, optional, params, str } from '../validate.ts';
import { paneTarget } from '../pane-target.ts';

/** A report's answer: rejections are answers, never errors, so that hooks stay quiet. */
export interface ReportAnswer {
  accepted: boolean;
  reason?: string; // a stable code, e.g. stale_seq, stale_generation, nested_agent (docs/reporting.md)
}

/** Absent: the reporter is an agent started outside Corral, listed as an external pane by source and session. */
const target = optional(paneTarget);
const source = str({ min: 1, max: 64 });
const session = str({ min: 1, max: 256 });
const pid = int({ min: 1, max: 2 ** 31 - 1 });

export const PANE_REPORT_AGENT = defineMethod({
  name: 'pane.reportAgent',
  summary: "A hook's report of its agent's state (working, idle, blocked), with sequence, session and pid.",
  params: params({
    target,
    source,
    agent: str({ min: 1, max: 64 }),
    state: str({ min: 1, max: 32 }),
    session: optional(session),
    seq: optional(int({ min: 0, max: Number.MAX_SAFE_INTEGER })),
    ts: optional(int({ min: 0, max: 2 ** 40 })),
    message: optional(str({ max: 4096 })),
    pid: optional(pid),
  }),
  result: returns<ReportAnswer>(),
  errors: ['pane_not_found'],
});

export const PANE_RELEASE_AGENT = defineMethod({
  name: 'pane.releaseAgent',
  summary: "A hook's word that its agent session ended.",
  params: params({ target, source, session: optional(session), pid: optional(pid) }),
  result: returns<ReportAnswer>(),
  errors: ['pane_not_found'],
});

export const PANE_REPORT_SESSION = defineMethod({
  name: 'pane.reportSession',
  summary: 'Session identity only: which agent session runs in the pane, without a state.',
  params: params({ target, source, agent: optional(str({ min: 1, max: 64 })), session, pid: optional(pid) }),
  result: returns<ReportAnswer>(),
  errors: ['pane_not_found'],
});
