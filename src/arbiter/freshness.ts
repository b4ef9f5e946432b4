import type { Report, StoredReport } from './report.ts';
import type { ArbiterWindows } from './windows.ts';

/** Whether a report's state may decide now, and the next moment that may change. */
export type Authority =
  | { authoritative: true; changesAt: number | null }
  | { authoritative: false; reason: 'stale_ts' | 'future_ts'; changesAt: number | null };

/**
 * Seed 000: a non-idle report whose ts is older than 6 h, or more than 5 min ahead, is not
 * authoritative (a pane outlives the session that wrote it; a fast clock must not keep a report
 * fresh forever). Idle reports and reports without ts are trusted indefinitely.
 */
export function reportAuthority(report: Report, now: number, windows: ArbiterWindows): Authority {
  if (report.ts === undefined || report.state === 'idle') return { authoritative: true, changesAt: null };
  const emittedAt = report.ts * 1000;
  if (emittedAt - now > windows.futureSkewMs) {
    return { authoritative: false, reason: 'future_ts', changesAt: emittedAt - windows.futureSkewMs };
  }
  const expiresAt = emittedAt + windows.staleAfterMs;
  if (now > expiresAt) return { authoritative: false, reason: 'stale_ts', changesAt: null };
  return { authoritative: true, changesAt: expiresAt + 1 };
}

/** Where no process can be observed, a reported identity lapses this long after it was last sent. */
export function identityExpiresAt(report: StoredReport, windows: ArbiterWindows): number {
  const sentAt = report.ts === undefined ? report.at : Math.min(report.ts * 1000, report.at);
  return sentAt + windows.identityExpiryMs;
}
