import type { ManifestRef } from './types.ts';

interface Subject {
  text: string;
  changedAt: number;
}

/**
 * What time-conditioned rules remember between evaluations of one pane: when the screen last
 * changed (for `quiet_for_ms`) and, per rule, when the text it matched last changed (for
 * `motion_within_ms`). Pure data: the caller owns one per pane and passes its clock's time in
 * `DetectInput.at`; the live daemon and `detect replay` hold one the same way.
 */
export class ScreenMemory {
  #manifest: ManifestRef | null = null;
  /** The rows last observed, kept as given (the caller's array, never changed after): compared row by row. */
  #screen: readonly string[] | null = null;
  #screenChangedAt = 0;
  readonly #subjects = new Map<string, Subject>();

  /** Called once per evaluation, before any rule: a new manifest starts from nothing. */
  observeScreen(manifest: ManifestRef, lines: readonly string[], at: number): void {
    // Once per evaluation of every busy pane: compared in place, not joined into one string each time.
    const known = this.#manifest;
    if (known === null || known.id !== manifest.id || known.version !== manifest.version || known.source !== manifest.source) {
      this.#manifest = manifest;
      this.#subjects.clear();
      this.#screen = null;
    }
    if (this.#screen === null || !sameLines(lines, this.#screen)) {
      this.#screen = lines;
      this.#screenChangedAt = at;
    }
  }

  /** Milliseconds the screen has been unchanged at `at`. */
  quietFor(at: number): number {
    return at - this.#screenChangedAt;
  }

  /** As quietFor, for a screen that may not have been observed yet (explain leaves the memory alone). */
  quietAt(lines: readonly string[], at: number): number {
    return this.#screen !== null && sameLines(lines, this.#screen) ? at - this.#screenChangedAt : 0;
  }

  get screenChangedAt(): number {
    return this.#screenChangedAt;
  }

  /**
   * When the rule's subject last changed, recording `text` as seen at `at` unless `peek`. A subject
   * seen for the first time counts as changed at `firstSeenAt` (-Infinity: never changed).
   */
  subjectChangedAt(rule: string, text: string, at: number, peek: boolean, firstSeenAt = at): number {
    const known = this.#subjects.get(rule);
    if (known && known.text === text) return known.changedAt;
    const changedAt = known ? at : firstSeenAt;
    if (!peek) this.#subjects.set(rule, { text, changedAt });
    return changedAt;
  }

  /** Whether the rule's subject has been seen before (a first sight is no change from anything). */
  knows(rule: string): boolean {
    return this.#subjects.has(rule);
  }

  /** The rule's subject is gone: when it comes back, that is a change. */
  forget(rule: string, peek: boolean): void {
    if (!peek) this.#subjects.delete(rule);
  }
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
