import { BoundedMap } from './bounded-map.ts';

/**
 * The last accepted seq per source, within the current generation (one agent process) only: a new
 * session of the same process keeps the order, so a replayed report of an older session cannot undo
 * a newer one; a new agent process restarts the counters, and its older generation is rejected before
 * seq is compared. The session argument is kept for callers and ignored.
 */
export class SequenceLedger {
  readonly #last: BoundedMap<string, number>;

  constructor(limit: number) {
    this.#last = new BoundedMap(limit);
  }

  /** The last accepted seq when `seq` is not newer than it, else null. */
  staleAgainst(source: string, session: string | undefined, seq: number): number | null {
    const last = this.#last.get(key(source, session));
    return last !== undefined && seq <= last ? last : null;
  }

  accept(source: string, session: string | undefined, seq: number): void {
    this.#last.set(key(source, session), seq);
  }

  lastOf(source: string, session: string | undefined): number | undefined {
    return this.#last.get(key(source, session));
  }

  clear(): void {
    this.#last.clear();
  }

  /** Every watermark, to carry over a daemon restart. */
  save(): Array<[string, number]> {
    return this.#last.entries();
  }

  load(saved: ReadonlyArray<[string, number]>): void {
    for (const [k, seq] of saved) if (typeof k === 'string' && Number.isSafeInteger(seq)) this.#last.set(k, seq);
  }
}

function key(source: string, _session: string | undefined): string {
  return source;
}
