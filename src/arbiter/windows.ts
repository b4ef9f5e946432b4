/** Every time window and bound of the arbiter, in milliseconds unless named otherwise. */
export interface ArbiterWindows {
  /** How long a screen-inferred transition leaving blocked, or working to idle, must hold (seed 000: ~450 ms). */
  debounceMs: number;
  /**
   * How long the first screen-inferred idle of a new agent process must hold: agents draw their composer
   * before a start-up dialog replaces it (Gemini CLI 0.61: 0.3 to 0.5 s before its folder-trust dialog),
   * and a script waiting for idle after a spawn would otherwise type into that dialog.
   */
  startupSettleMs: number;
  /** A non-idle report whose ts is older than this is not authoritative (seed 000: 6 h). */
  staleAfterMs: number;
  /** A non-idle report whose ts is further ahead than this is not authoritative (seed 000: 5 min). */
  futureSkewMs: number;
  /** Where no process can be observed, a reported identity expires after this (seed 000: 6 h). */
  identityExpiryMs: number;
  /**
   * How long a still screen lets a pushed working report outrank a weak screen idle (a prompt box
   * alone): past it, a program that missed its own end (an Esc its hooks never saw) reads idle.
   */
  pushedQuietMs: number;
  /** How many rejected reports each pane keeps for explain. */
  rejectionLogSize: number;
  /** How many past sessions and agent pids each pane remembers to reject late reports. */
  historySize: number;
}

const HOUR_MS = 60 * 60 * 1000;

export const DEFAULT_WINDOWS: Readonly<ArbiterWindows> = Object.freeze({
  debounceMs: 450,
  startupSettleMs: 1000,
  staleAfterMs: 6 * HOUR_MS,
  futureSkewMs: 5 * 60 * 1000,
  identityExpiryMs: 6 * HOUR_MS,
  pushedQuietMs: 5000,
  rejectionLogSize: 16,
  historySize: 256,
});
