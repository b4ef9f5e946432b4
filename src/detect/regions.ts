import type { DetectInput } from './types.ts';
import type { RegionSpec } from './region-spec.ts';
import { joinWrapped } from './logical-lines.ts';
import { isBlank, lastRuleRows, startsWithPromptMarker, stripSideBorders } from './screen-structure.ts';

const NBSP = /\u00a0/g;
const NO_ROW = -1;

/** Rows of the screen a rule anchored on (the last line its first `line_regex` matched): first and last row. */
export interface Anchor {
  first: number;
  last: number;
}

/** The lines a region selects, with its joined text computed on first use. */
export class RegionView {
  readonly name: string;
  readonly lines: readonly string[];
  /** Per line, the screen row it starts on, and the row it ends on (a logical line spans several); -1 when not a screen row. */
  readonly firstRows: readonly number[];
  readonly lastRows: readonly number[];
  #text: string | null = null;
  #lower: string | null = null;
  #lowerLines: string[] | null = null;

  constructor(name: string, lines: readonly string[], firstRows: readonly number[], lastRows: readonly number[] = firstRows) {
    this.name = name;
    this.lines = lines;
    this.firstRows = firstRows;
    this.lastRows = lastRows;
  }

  get text(): string {
    return (this.#text ??= this.lines.join('\n'));
  }

  get lower(): string {
    return (this.#lower ??= this.text.toLowerCase());
  }

  get lowerLines(): readonly string[] {
    return (this.#lowerLines ??= this.lines.map((line) => line.toLowerCase()));
  }
}

interface Cut {
  lines: readonly string[];
  rows: readonly number[];
}

/**
 * Cuts regions out of one input, each at most once per evaluation. Every region drops its leading
 * and trailing blank lines, so `^` and `$` in a region regex mean its first and last visible line.
 * Non-breaking spaces read as spaces (Claude Code 2.1.197 writes `❯\u00a0` in its prompt). A region
 * is cut by rows; with `logical`, rows the emulator soft-wrapped are then joined into one line.
 */
export class RegionReader {
  readonly #lines: readonly string[];
  readonly #input: DetectInput;
  readonly #wrapped: readonly boolean[];
  readonly #cache = new Map<string, RegionView>();
  #rules: number[] | null = null;

  constructor(input: DetectInput) {
    this.#input = input;
    this.#wrapped = input.wrapped ?? [];
    const lines = input.lines.map((line) => (line.includes('\u00a0') ? line.replace(NBSP, ' ') : line));
    let end = lines.length;
    while (end > 0 && isBlank(lines[end - 1]!)) end--;
    this.#lines = end === lines.length ? lines : lines.slice(0, end);
  }

  /** The screen's rows as regions read them (non-breaking spaces as spaces, trailing blank rows dropped). */
  get lines(): readonly string[] {
    return this.#lines;
  }

  get(spec: RegionSpec, logical = false, anchor: Anchor | null = null): RegionView {
    const relative = spec.kind === 'below_match' || spec.kind === 'above_match';
    const key = `${spec.name}${logical ? '|logical' : ''}${relative ? `|${anchor ? `${anchor.first}-${anchor.last}` : 'none'}` : ''}`;
    let view = this.#cache.get(key);
    if (!view) {
      const cut = trimBlankEdges(this.#cut(spec, anchor));
      if (logical && cut.lines.length > 1 && this.#wrapped.length > 0) {
        const joined = joinWrapped(cut.lines, cut.rows, this.#wrapped);
        const first: number[] = [];
        const last: number[] = [];
        for (let i = 0; i < cut.lines.length; i++) {
          const row = cut.rows[i]!;
          const continues = i > 0 && row > 0 && cut.rows[i - 1] === row - 1 && this.#wrapped[row] === true;
          if (continues) last[last.length - 1] = row;
          else {
            first.push(row);
            last.push(row);
          }
        }
        view = new RegionView(spec.name, joined, first, last);
      } else {
        view = new RegionView(spec.name, cut.lines, cut.rows);
      }
      this.#cache.set(key, view);
    }
    return view;
  }

  /** The last two horizontal rules' rows (fewer when there are fewer): the regions use no other. */
  #ruleRows(): number[] {
    return (this.#rules ??= lastRuleRows(this.#lines, 2));
  }

  #rowsFrom(start: number, end: number): Cut {
    const rows: number[] = [];
    for (let i = start; i < end; i++) rows.push(i);
    return { lines: this.#lines.slice(start, end), rows };
  }

  #cut(spec: RegionSpec, anchor: Anchor | null): Cut {
    const lines = this.#lines;
    switch (spec.kind) {
      case 'whole_recent':
        return this.#rowsFrom(0, lines.length);
      case 'bottom_lines':
        return this.#rowsFrom(Math.max(0, lines.length - spec.count), lines.length);
      case 'bottom_non_empty_lines': {
        const rows: number[] = [];
        for (let i = lines.length - 1; i >= 0 && rows.length < spec.count; i--) if (!isBlank(lines[i]!)) rows.push(i);
        rows.reverse();
        return { lines: rows.map((row) => lines[row]!), rows };
      }
      case 'top_non_empty_lines': {
        const rows: number[] = [];
        for (let i = 0; i < lines.length && rows.length < spec.count; i++) if (!isBlank(lines[i]!)) rows.push(i);
        return { lines: rows.map((row) => lines[row]!), rows };
      }
      case 'after_last_horizontal_rule': {
        const rules = this.#ruleRows();
        return rules.length === 0 ? this.#rowsFrom(0, lines.length) : this.#rowsFrom(rules[rules.length - 1]! + 1, lines.length);
      }
      case 'prompt_box_body': {
        const rules = this.#ruleRows();
        if (rules.length < 2) return { lines: [], rows: [] };
        const cut = this.#rowsFrom(rules[rules.length - 2]! + 1, rules[rules.length - 1]!);
        return { lines: cut.lines.map(stripSideBorders), rows: cut.rows };
      }
      case 'above_prompt_box': {
        const rules = this.#ruleRows();
        return rules.length < 2 ? this.#rowsFrom(0, lines.length) : this.#rowsFrom(0, rules[rules.length - 2]!);
      }
      case 'after_last_prompt_marker': {
        for (let i = lines.length - 1; i >= 0; i--) if (startsWithPromptMarker(lines[i]!)) return this.#rowsFrom(i, lines.length);
        return { lines: [], rows: [] };
      }
      case 'below_match':
        return anchor && anchor.last >= 0 ? this.#rowsFrom(anchor.last + 1, lines.length) : { lines: [], rows: [] };
      case 'above_match':
        return anchor && anchor.first >= 0 ? this.#rowsFrom(0, anchor.first) : { lines: [], rows: [] };
      case 'osc_title':
        return this.#input.title ? { lines: [this.#input.title], rows: [NO_ROW] } : { lines: [], rows: [] };
      case 'osc_progress': {
        const progress = this.#input.progress;
        if (!progress) return { lines: [], rows: [] };
        return { lines: [progress.percent === null ? `${progress.state}` : `${progress.state};${progress.percent}`], rows: [NO_ROW] };
      }
    }
  }
}

function trimBlankEdges(cut: Cut): Cut {
  const { lines, rows } = cut;
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start]!)) start++;
  while (end > start && isBlank(lines[end - 1]!)) end--;
  return start === 0 && end === lines.length ? cut : { lines: lines.slice(start, end), rows: rows.slice(start, end) };
}
