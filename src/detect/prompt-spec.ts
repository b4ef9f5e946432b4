import type { PromptKind } from '../protocol/prompt.ts';
import type { RegionSpec } from './region-spec.ts';

/**
 * How a menu choice with no key hint of its own is chosen: its number typed, or arrows from the cursor
 * then Enter; `row`: a row of buttons whose selection the screen text does not show, the first
 * selected when the dialog opens, Right from it then Enter.
 */
export type PromptSelect = 'number' | 'arrows' | 'row';

/**
 * One `[[prompts]]` table of a manifest: how to read the dialog of a blocked agent as data
 * (docs/manifests.md, "[[prompts]]"). Readers are tried in file order; the first that applies reads.
 */
export interface PromptReaderSpec {
  id: string;
  kind: PromptKind;
  region: RegionSpec;
  /** line_regex: the dialog starts at the newest line of the region it matches; null: at the region's top. */
  start: string | null;
  /** line_regex entries that must each match a line of the dialog for the reader to apply. */
  when: string[];
  /** line_regex with named groups `label` (required), `number`, `key`, `cursor`; every match on a line is one choice. */
  choice: string | null;
  /** line_regex: the newest dialog line it matches holds key hints (`Enter to … · Esc to cancel`); the dialog ends there. */
  footer: string | null;
  /** Footer hints that choose nothing (`navigate`, `select`), by label, case-insensitive. */
  footerIgnore: string[];
  /** line_regex: dialog lines left out of the text (a tip, a path). */
  textSkip: string[];
  /** line_regex: when given, only dialog lines matching one of them are text. */
  textKeep: string[];
  /** At most this many lines of text. */
  textLines: number;
  select: PromptSelect;
  /** The answer is text typed into the form. */
  freeText: boolean;
  /**
   * The reader knows its dialog only in part (its top cut off or drawn over): every read says
   * `complete: false` with this reason, and it reads only when no other reader does.
   */
  incomplete: string | null;
  /**
   * line_regex on a choice's label, giving its role (docs/manifests.md, "Choice roles"); tried
   * allow_always, then deny, then allow_once; a label none matches is `other`.
   */
  roles: { allowOnce: string | null; allowAlways: string | null; deny: string | null };
  /** Said when the dialog offers no choices: why. */
  note: string | null;
  evidence: string | null;
  index: number;
}
