/** OSC 9;4 progress. state: 0 remove, 1 normal, 2 error, 3 indeterminate, 4 paused/warning. */
export interface ProgressReport {
  state: 0 | 1 | 2 | 3 | 4;
  percent: number | null;
}

/** A captured OSC value with the wall-clock time (ms since epoch) it arrived. */
export interface Timed<T> {
  value: T;
  at: number;
}

/**
 * What detection reads of one pane at one moment. `lines` are the bottom `rows` rows of the
 * buffer (from baseY, never the user's viewport), each right-trimmed, top to bottom.
 * `title` and `progress` are only what the program itself emitted: null until the first report
 * and reset when the foreground program changes; display fallbacks never appear here.
 */
export interface ScreenSnapshot {
  cols: number;
  rows: number;
  lines: string[];
  /**
   * Per row: true where the row continues the one above (the emulator wrapped it, xterm's
   * isWrapped). A row that wraps onto the next keeps its trailing spaces, so joining loses none.
   */
  wrapped: boolean[];
  cursor: { x: number; y: number };
  title: string | null;
  progress: ProgressReport | null;
}
