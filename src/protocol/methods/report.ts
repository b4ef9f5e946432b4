import { defineMethod } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';

/** A report's answer: rejections are answers, never errors, so that hooks stay quiet. */
export const ReportAnswer = Type.Object({
  accepted: Type.Boolean(),
  reason: Type.Optional(Type.String()), // a stable code, e.g. stale_seq, stale_generation, nested_agent (docs/reporting.md)
});
export type ReportAnswer = Static<typeof ReportAnswer>;

/** Absent: the reporter is an agent started outside Corral, listed as an external pane by source and session. */
const target = Type.Optional(paneTarget);
const source = Type.String({ minLength: 1, maxLength: 64 });
const session = Type.String({ minLength: 1, maxLength: 256 });
const pid = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 });
/** The agent's own record of its session, whose usage Corral reads (docs/usage.md); a format it does not know is ignored. */
const record = Type.Optional(
  Type.Object({ format: Type.String({ minLength: 1, maxLength: 32 }), path: Type.String({ minLength: 2, maxLength: 4096 }) }, { ...STRICT, description: "The agent's own record of its session (a transcript), whose usage Corral reads: docs/usage.md." }),
);

export const PANE_REPORT_AGENT = defineMethod({
  name: 'pane.reportAgent',
  summary: "A hook's report of its agent's state (working, idle, blocked), with sequence, session and pid.",
  params: Type.Object({
    target,
    source,
    agent: Type.String({ minLength: 1, maxLength: 64 }),
    state: Type.String({ minLength: 1, maxLength: 32 }),
    session: Type.Optional(session),
    seq: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    ts: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 40 })),
    message: Type.Optional(Type.String({ maxLength: 4096 })),
    pid: Type.Optional(pid),
    record,
  }, STRICT),
  result: ReportAnswer,
  errors: ['pane_not_found'],
});

export const PANE_RELEASE_AGENT = defineMethod({
  name: 'pane.releaseAgent',
  summary: "A hook's word that its agent session ended.",
  params: Type.Object({ target, source, session: Type.Optional(session), pid: Type.Optional(pid) }, STRICT),
  result: ReportAnswer,
  errors: ['pane_not_found'],
});

export const PANE_REPORT_SESSION = defineMethod({
  name: 'pane.reportSession',
  summary: 'Session identity only: which agent session runs in the pane, without a state.',
  params: Type.Object({ target, source, agent: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), session, pid: Type.Optional(pid), record }, STRICT),
  result: ReportAnswer,
  errors: ['pane_not_found'],
});
