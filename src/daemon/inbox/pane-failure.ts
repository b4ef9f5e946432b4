import { constants } from 'node:os';
import type { PaneFailure } from '../../protocol/methods/inbox.ts';

/** Signal numbers by name, as this platform numbers them (os.constants.signals). */
const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/**
 * How a pane's exit failed, or null for a clean one: a signal that ended it (by name, its number when
 * the platform has no name for it), or a non-zero status. An exit that tells neither (a pane lost with
 * its pty host) is not known to have failed, and neither is an interrupt (SIGINT, or the status 130 a
 * program ends with on Ctrl-C): that is someone stopping it, not the agent failing.
 */
export function failureOf(exitCode: number | null, signal: number | null): PaneFailure | null {
  if (signal === constants.signals.SIGINT || exitCode === 128 + constants.signals.SIGINT) return null;
  if (signal !== null && signal !== 0) return { code: null, signal: SIGNAL_NAMES.get(signal) ?? `signal ${signal}` };
  if (exitCode !== null && exitCode !== 0) return { code: exitCode, signal: null };
  return null;
}
