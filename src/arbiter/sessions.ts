import { BoundedMap } from './bounded-map.ts';
import type { RejectReason } from './types.ts';

export interface SessionEntry {
  generation: number;
  ended: boolean;
}

/**
 * Which generation each session was last seen in, and whether it ended. A session first seen in an
 * older generation is rejected unless a pid binds the report to the live process (a resumed session).
 */
export class SessionBook {
  readonly #entries: BoundedMap<string, SessionEntry>;

  constructor(limit: number) {
    this.#entries = new BoundedMap(limit);
  }

  check(session: string, generation: number, boundByPid: boolean): { reason: RejectReason; detail: string } | null {
    const entry = this.#entries.get(session);
    if (entry === undefined) return null;
    if (entry.generation < generation && !boundByPid) {
      return { reason: 'stale_generation', detail: `session ${session} belongs to generation ${entry.generation}, now ${generation}` };
    }
    if (entry.generation === generation && entry.ended) {
      return { reason: 'session_ended', detail: `session ${session} was released` };
    }
    return null;
  }

  bind(session: string, generation: number): void {
    this.#entries.set(session, { generation, ended: false });
  }

  end(session: string, generation: number): void {
    this.#entries.set(session, { generation, ended: true });
  }

  /** Every session's generation, to carry over a daemon restart. */
  save(): Array<[string, SessionEntry]> {
    return this.#entries.entries();
  }

  load(saved: ReadonlyArray<[string, SessionEntry]>): void {
    for (const [session, entry] of saved) {
      if (typeof session === 'string' && Number.isSafeInteger(entry?.generation)) this.#entries.set(session, { generation: entry.generation, ended: entry.ended === true });
    }
  }
}
