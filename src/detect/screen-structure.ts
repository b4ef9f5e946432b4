/** Box-drawing horizontals that make a horizontal rule. */
const HORIZONTAL_CODES: ReadonlySet<number> = new Set([...'─━═╌╍┄┅▔▁'].map((char) => char.charCodeAt(0)));
const MIN_RULE_RUN = 8;
/** Cheap native pre-check: most lines hold no run of 8 horizontals and skip the per-character count. */
const RULE_RUN = /[─━═╌╍┄┅▔▁]{8}/;
const MIN_RULE_SHARE = 0.6;
const PROMPT_MARKERS = new Set(['>', '›', '❯', '▌', '┃']);
const SIDE_BORDER = /^[│┃║]\s?|\s?[│┃║]$/g;

/**
 * A rule line holds a run of at least 8 horizontals, and horizontals make at least 60% of its
 * non-blank characters: labels on a rule exist (`──── ◐ medium · /effort` in Claude Code,
 * `──── 100% ─` in the Codex transcript viewer), prose with a short dash run does not qualify.
 */
export function isHorizontalRule(line: string): boolean {
  if (!RULE_RUN.test(line)) return false;
  let horizontals = 0;
  let nonBlank = 0;
  let run = 0;
  let longestRun = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code === 0x20 || code === 0x09 || code === 0xa0) {
      run = 0;
      continue;
    }
    if (code >= 0xdc00 && code <= 0xdfff) continue; // second half of a surrogate pair: one character
    nonBlank++;
    if (isHorizontalCode(code)) {
      horizontals++;
      run++;
      if (run > longestRun) longestRun = run;
    } else {
      run = 0;
    }
  }
  return longestRun >= MIN_RULE_RUN && horizontals >= nonBlank * MIN_RULE_SHARE;
}

function isHorizontalCode(code: number): boolean {
  return HORIZONTAL_CODES.has(code);
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

export function startsWithPromptMarker(line: string): boolean {
  const trimmed = line.trimStart();
  return trimmed.length > 0 && PROMPT_MARKERS.has(trimmed[0]!);
}

export function stripSideBorders(line: string): string {
  return line.replace(SIDE_BORDER, '').trimEnd();
}

/**
 * Row indexes of the last `count` horizontal rules, top to bottom. Read from the bottom up, stopping
 * at the last one wanted: the regions need only the last two, and a transcript above them is long.
 */
export function lastRuleRows(lines: readonly string[], count: number): number[] {
  const rows: number[] = [];
  for (let i = lines.length - 1; i >= 0 && rows.length < count; i--) if (isHorizontalRule(lines[i]!)) rows.push(i);
  return rows.reverse();
}
