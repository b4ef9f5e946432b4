import type { RawState } from '../protocol/states.ts';
import type { Decision, RuledScreen } from './precedence.ts';

/** A screen-inferred transition waiting for the screen to confirm it. */
export interface PendingTransition {
  agent: string;
  state: RawState;
  since: number;
  deadline: number;
}

/**
 * Seed 000: transitions inferred from the screen that leave blocked, or go from working to idle,
 * wait ~450 ms so a half-drawn frame does not fire a notification. Explicit reports are not debounced.
 * A screen on which no rule matches any more (the fallback) waits too: programs that redraw without
 * synchronized output show frames half erased, and each would otherwise publish unknown and back
 * (seen live with Qwen Code 0.15: working > unknown > working four times in a few ms).
 */
export function needsDebounce(previous: { agent: string | null; state: RawState }, decision: Decision, ruled: RuledScreen | null = null): boolean {
  if (decision.agent === null || previous.agent !== decision.agent) return false;
  if (decision.rule === 'report') return reportContradictsScreen(previous, decision, ruled);
  if (decision.rule !== 'screen_rule' && decision.rule !== 'screen_fallback') return false;
  const leavesBlocked = previous.state === 'blocked' && decision.state !== 'blocked';
  const finishesWork = previous.state === 'working' && decision.state === 'idle';
  const losesEvidence = decision.rule === 'screen_fallback' && previous.state !== 'unknown' && previous.state !== decision.state;
  return leavesBlocked || finishesWork || losesEvidence;
}

/**
 * A report decides only while no rule matches the screen, as in a frame half redrawn. When it says
 * another state than the screen's rules last showed, it waits like a screen transition: the next whole
 * frame confirms it or takes it back. Seen live with Qwen Code 0.24.4 (issue 39): a late hook said
 * working after an Esc between two idle frames, and its done came twice for one turn.
 */
function reportContradictsScreen(previous: { state: RawState }, decision: Decision, ruled: RuledScreen | null): boolean {
  if (ruled === null || ruled.agent !== decision.agent) return false;
  return previous.state !== 'unknown' && previous.state !== decision.state && ruled.state !== decision.state;
}

/**
 * The first idle the screen shows for a new agent process, before any other known state: it must hold
 * for the start-up window (windows.startupSettleMs), since a start-up dialog may still replace it.
 */
export function isStartupIdle(previous: { agent: string | null; state: RawState }, decision: Decision, lastKnown: RawState | null): boolean {
  if (decision.rule !== 'screen_rule' && decision.rule !== 'screen_fallback') return false;
  return decision.agent !== null && previous.agent === decision.agent && previous.state === 'unknown' && decision.state === 'idle' && lastKnown === null;
}

export type DebounceStep = { apply: true; pending: null } | { apply: false; pending: PendingTransition };

/** Whether to apply a debounced decision now, given the transition already waiting (if any). */
export function debounce(decision: Decision & { agent: string }, pending: PendingTransition | null, now: number, debounceMs: number): DebounceStep {
  const same = pending !== null && pending.agent === decision.agent && pending.state === decision.state;
  const waiting = same ? pending : { agent: decision.agent, state: decision.state, since: now, deadline: now + debounceMs };
  return now >= waiting.deadline ? { apply: true, pending: null } : { apply: false, pending: waiting };
}
