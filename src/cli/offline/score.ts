import type { RawState } from '../../protocol/states.ts';
import type { Verdict } from '../../detect/types.ts';

/** What a labelled case expects; absent fields are not checked. */
export interface Expectation {
  state?: RawState;
  skip_state_update?: boolean;
  visible_idle?: boolean;
  visible_blocker?: boolean;
  visible_working?: boolean;
}

export type Outcome = 'right' | 'false_blocked' | 'false_idle' | 'conservative' | 'miss';

/**
 * Scores a verdict against a label. False blocked (pages a person for nothing) is checked first,
 * then false idle (scripts move on too early), then conservative (unknown where idle was expected).
 */
export function score(verdict: Verdict, expect: Expectation): { outcome: Outcome; mismatches: string[] } {
  const mismatches: string[] = [];
  if (expect.state !== undefined && verdict.state !== expect.state) mismatches.push(`state ${verdict.state}, expected ${expect.state}`);
  if (expect.skip_state_update !== undefined && verdict.skipStateUpdate !== expect.skip_state_update) mismatches.push(`skip_state_update ${verdict.skipStateUpdate}, expected ${expect.skip_state_update}`);
  for (const [key, actual] of [['visible_idle', verdict.visible.idle], ['visible_blocker', verdict.visible.blocker], ['visible_working', verdict.visible.working]] as const) {
    if (expect[key] !== undefined && actual !== expect[key]) mismatches.push(`${key} ${actual}, expected ${expect[key]}`);
  }
  if (mismatches.length === 0) return { outcome: 'right', mismatches };
  const blockedNotExpected = expect.state !== undefined ? expect.state !== 'blocked' : expect.visible_blocker === false || expect.skip_state_update === true;
  if (verdict.state === 'blocked' && blockedNotExpected) return { outcome: 'false_blocked', mismatches };
  if (verdict.state === 'idle' && (expect.state === 'working' || expect.state === 'blocked')) return { outcome: 'false_idle', mismatches };
  if (verdict.state === 'unknown' && expect.state === 'idle' && !verdict.skipStateUpdate) return { outcome: 'conservative', mismatches };
  return { outcome: 'miss', mismatches };
}
