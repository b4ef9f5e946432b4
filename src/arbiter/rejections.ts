import type { RejectReason } from './types.ts';

export interface Rejection {
  at: number;
  source: string;
  reason: RejectReason;
  detail: string;
  /** What was reported, short: `claude working session=s1 seq=42 pid=1234`. */
  summary: string;
}

/** The last N rejected reports of one pane, newest last, for explain. */
export class RejectionLog {
  readonly #entries: Rejection[] = [];
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  record(rejection: Rejection): void {
    this.#entries.push(rejection);
    if (this.#entries.length > this.#limit) this.#entries.shift();
  }

  list(): readonly Rejection[] {
    return [...this.#entries];
  }
}
