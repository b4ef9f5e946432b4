import type { DetectInput } from './types.ts';
import type { RegionSpec } from './region-spec.ts';
import { isBlank, ruleRows, startsWithPromptMarker, stripSideBorders } from './screen-structure.ts';

const NBSP = /\u00a0/g;

/** The lines a region selects, with its joined text computed on first use. */
export class RegionView {
  readonly name: string;
  readonly lines: readonly string[];
  #text: string | null = null;
  #lower: string | null = null;
  #lowerLines: string[] | null = null;

  constructor(name: string, lines: readonly string[]) {
    this.name = name;
    this.lines = lines;
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

/**
 * Cuts regions out of one input, each at most once per evaluation. Every region drops its leading
 * and trailing blank lines, so `^` and `$` in a region regex mean its first and last visible line.
 * Non-breaking spaces read as spaces (Claude Code 2.1.197 writes `❯\u00a0` in its prompt).
 */
export class RegionReader {
  readonly #lines: readonly string[];
  readonly #input: DetectInput;
  readonly #cache = new Map<string, RegionView>();
  #rules: number[] | null = null;

  constructor(input: DetectInput) {
    this.#input = input;
    const lines = input.lines.map((line) => (line.includes('\u00a0') ? line.replace(NBSP, ' ') : line));
    let end = lines.length;
    while (end > 0 && isBlank(lines[end - 1]!)) end--;
    this.#lines = end === lines.length ? lines : lines.slice(0, end);
  }

  get(spec: RegionSpec): RegionView {
    let view = this.#cache.get(spec.name);
    if (!view) {
      view = new RegionView(spec.name, trimBlankEdges(this.#cut(spec)));
      this.#cache.set(spec.name, view);
    }
    return view;
  }

  #ruleRows(): number[] {
    return (this.#rules ??= ruleRows(this.#lines));
  }

  #cut(spec: RegionSpec): readonly string[] {
    const lines = this.#lines;
    switch (spec.kind) {
      case 'whole_recent':
        return lines;
      case 'bottom_lines':
        return lines.slice(Math.max(0, lines.length - spec.count));
      case 'bottom_non_empty_lines': {
        const picked: string[] = [];
        for (let i = lines.length - 1; i >= 0 && picked.length < spec.count; i--) if (!isBlank(lines[i]!)) picked.push(lines[i]!);
        return picked.reverse();
      }
      case 'top_non_empty_lines': {
        const picked: string[] = [];
        for (let i = 0; i < lines.length && picked.length < spec.count; i++) if (!isBlank(lines[i]!)) picked.push(lines[i]!);
        return picked;
      }
      case 'after_last_horizontal_rule': {
        const rows = this.#ruleRows();
        return rows.length === 0 ? lines : lines.slice(rows[rows.length - 1]! + 1);
      }
      case 'prompt_box_body': {
        const rows = this.#ruleRows();
        if (rows.length < 2) return [];
        return lines.slice(rows[rows.length - 2]! + 1, rows[rows.length - 1]!).map(stripSideBorders);
      }
      case 'above_prompt_box': {
        const rows = this.#ruleRows();
        return rows.length < 2 ? lines : lines.slice(0, rows[rows.length - 2]!);
      }
      case 'after_last_prompt_marker': {
        for (let i = lines.length - 1; i >= 0; i--) if (startsWithPromptMarker(lines[i]!)) return lines.slice(i);
        return [];
      }
      case 'osc_title':
        return this.#input.title ? [this.#input.title] : [];
      case 'osc_progress': {
        const progress = this.#input.progress;
        if (!progress) return [];
        return [progress.percent === null ? `${progress.state}` : `${progress.state};${progress.percent}`];
      }
    }
  }
}

function trimBlankEdges(lines: readonly string[]): readonly string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start]!)) start++;
  while (end > start && isBlank(lines[end - 1]!)) end--;
  return start === 0 && end === lines.length ? lines : lines.slice(start, end);
}
