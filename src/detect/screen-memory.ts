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
  #manifest: string | null = null;
  #screen: string | null = null;
  #screenChangedAt = 0;
  readonly #subjects = new Map<string, Subject>();

  /** Called once per evaluation, before any rule: a new manifest starts from nothing. */
  observeScreen(manifest: ManifestRef, lines: readonly string[], at: number): void {
    const key = `${manifest.id}@${manifest.version}:${manifest.source}`;
    if (key !== this.#manifest) {
      this.#manifest = key;
      this.#subjects.clear();
      this.#screen = null;
    }
    const screen = lines.join('\n');
    if (screen !== this.#screen) {
      this.#screen = screen;
      this.#screenChangedAt = at;
    }
  }

  /** Milliseconds the screen has been unchanged at `at`. */
  quietFor(at: number): number {
    return at - this.#screenChangedAt;
  }

  /** As quietFor, for a screen that may not have been observed yet (explain leaves the memory alone). */
  quietAt(lines: readonly string[], at: number): number {
    return lines.join('\n') === this.#screen ? at - this.#screenChangedAt : 0;
  }

  get screenChangedAt(): number {
    return this.#screenChangedAt;
  }

  /** When the rule's subject last changed, recording `text` as seen at `at` unless `peek`. */
  subjectChangedAt(rule: string, text: string, at: number, peek: boolean): number {
    const known = this.#subjects.get(rule);
    if (known && known.text === text) return known.changedAt;
    if (!peek) this.#subjects.set(rule, { text, changedAt: at });
    return at;
  }

  /** The rule's subject is gone: when it comes back, that is a change. */
  forget(rule: string, peek: boolean): void {
    if (!peek) this.#subjects.delete(rule);
  }
}
