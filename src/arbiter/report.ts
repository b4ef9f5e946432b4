import type { RawState } from '../protocol/states.ts';

/** A report of an agent's state from any source, normalised: hooks, self reports and OSC 7501 alike. */
export interface Report {
  source: string;
  agent: string;
  /** `unknown` when the reporter sent a state outside working/idle/blocked: it drives no indicator. */
  state: RawState;
  session?: string;
  seq?: number;
  /** When the reporter emitted it, in unix seconds. */
  ts?: number;
  message?: string;
  /** The reporting process; a report with a pid is bound to the pane's process tree. */
  pid?: number;
  /** The reporter says its session ended (self report `ended=1`). */
  ended?: boolean;
}

/** A report the arbiter accepted, with when it arrived and the generation it belongs to. */
export interface StoredReport extends Report {
  at: number;
  /** Arrival order among all evidence of the pane: ties in time are still ordered. */
  arrival: number;
  generation: number;
  /**
   * An in-band report's process group: the one holding the terminal when its bytes were parsed. It
   * counts only while that group keeps the foreground (see inband-binding.ts).
   */
  group?: number;
}

/** Sources the arbiter itself gives to in-band evidence; hooks may not use them. */
export const SELF_REPORT_SOURCE = 'osc1337';
export const PROGRAM_STATUS_SOURCE = 'osc7501';
export const RESERVED_SOURCES: readonly string[] = [SELF_REPORT_SOURCE, PROGRAM_STATUS_SOURCE];
