import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PolicyDecision } from '../../protocol/methods/policy.ts';
import type { Logger } from '../logger.ts';
import { stateDir } from '../private-file.ts';

/** The log is moved aside to `<file>.1` (one kept) once it passes this size. */
export const AUDIT_LOG_MAX_BYTES = 4 << 20;
/** Decisions kept in memory for `policy.log`, read back from the file's end at start. */
export const AUDIT_RECENT = 1000;
const TAIL_BYTES = 512 * 1024;

/** One audit log per daemon socket, beside its pane state file. */
export function auditLogPath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), `policy-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}.jsonl`);
}

/**
 * The policy's durable audit log: one JSON line per decision, appended as it is taken (the user's
 * own, mode 0600), and the newest kept in memory. A write that fails is logged and the decision
 * still stands: the event log holds it too.
 */
export class AuditLog {
  private readonly recentDecisions: PolicyDecision[];

  constructor(
    readonly path: string,
    private readonly log: Logger,
  ) {
    this.recentDecisions = readTail(path);
  }

  append(decision: PolicyDecision): void {
    this.recentDecisions.push(decision);
    if (this.recentDecisions.length > AUDIT_RECENT) this.recentDecisions.splice(0, this.recentDecisions.length - AUDIT_RECENT);
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      if (sizeOf(this.path) > AUDIT_LOG_MAX_BYTES) renameSync(this.path, `${this.path}.1`);
      appendFileSync(this.path, `${JSON.stringify(decision)}\n`, { mode: 0o600 });
    } catch (error) {
      this.log.error({ err: error, file: this.path }, 'cannot append to the policy audit log');
    }
  }

  /** The newest `limit` decisions, oldest first, of one pane when `paneId` is given. */
  recent(limit: number, paneId?: string): PolicyDecision[] {
    const chosen = paneId === undefined ? this.recentDecisions : this.recentDecisions.filter((decision) => decision.pane.id === paneId);
    return chosen.slice(-limit);
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The decisions at the end of the file; a line cut by the read's start or not a decision is skipped. */
function readTail(path: string): PolicyDecision[] {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const decisions: PolicyDecision[] = [];
  for (const line of text.split('\n')) {
    try {
      const value = JSON.parse(line) as PolicyDecision;
      if (typeof value === 'object' && value !== null && typeof value.promptId === 'string' && typeof value.action === 'string') decisions.push(value);
    } catch {
      // the first line may be cut; a torn last line from a crash
    }
  }
  return decisions.slice(-AUDIT_RECENT);
}
