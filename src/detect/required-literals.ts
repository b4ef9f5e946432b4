/**
 * Literal runs every match of a pattern must contain, so a text without one is refused by
 * `includes` before the regex engine reads it (the engine's own literal filter skips patterns
 * anchored with `^` and case-insensitive ones). Under `(?i)` the runs are lower-cased, for the
 * lower-cased text.
 *
 * Sound by construction: only top-level literal characters of a pattern without top-level `|` are
 * taken; a quantified character, a group, a class or an escape other than punctuation ends a run;
 * and under `(?i)` a run holds only characters whose every case variant lower-cases to the same
 * character (ASCII except s and k, which fold with U+017F and U+212A, and characters without case).
 */

const MIN_RUN = 2;
const QUANTIFIER = /^(?:[?*+]|\{\d+(?:,\d*)?\})/;

function foldsSimply(char: string): boolean {
  if (char.length !== 1) return false;
  if (char.charCodeAt(0) < 0x80) return !/[sSkK]/.test(char);
  return char.toLowerCase() === char && char.toUpperCase() === char;
}

/** `pattern` is a manifest pattern with glyph classes expanded and without its `(?i)`. */
export function requiredLiterals(pattern: string, caseInsensitive: boolean): string[] {
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run.length >= MIN_RUN) runs.push(caseInsensitive ? run.toLowerCase() : run);
    run = '';
  };
  for (let i = 0; i < pattern.length; ) {
    const token = nextToken(pattern, i);
    if (token === null) return [];
    if (token.alternation) return [];
    i = token.end;
    const quantified = QUANTIFIER.exec(pattern.slice(i));
    if (quantified) {
      i += quantified[0].length;
      if (pattern[i] === '?') i++; // lazy
    }
    if (token.literal === null || quantified || (caseInsensitive && !foldsSimply(token.literal))) end();
    else run += token.literal;
  }
  end();
  return runs;
}

/** One top-level token: a literal character, or something that is not one (`literal` null). */
function nextToken(pattern: string, at: number): { end: number; literal: string | null; alternation?: true } | null {
  const char = pattern[at]!;
  if (char === '|') return { end: at + 1, literal: null, alternation: true };
  if (char === '\\') {
    const next = pattern[at + 1];
    if (next === undefined) return null;
    if (/[\p{P}\p{S} ]/u.test(next)) return { end: at + 2, literal: next };
    // `\p{L}`, `\x{2800}`, `\u{1F311}`, `\u2800`, `\x1b`: an escape with a body is no literal run.
    const body = /^\\(?:[pPxu]\{[^}]*\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z])/.exec(pattern.slice(at));
    return { end: at + (body ? body[0].length : 2), literal: null };
  }
  if (char === '[') {
    const close = classEnd(pattern, at);
    return close < 0 ? null : { end: close + 1, literal: null };
  }
  if (char === '(') {
    const close = groupEnd(pattern, at);
    return close < 0 ? null : { end: close + 1, literal: null };
  }
  if ('.^$)'.includes(char)) return { end: at + 1, literal: null };
  const codePoint = String.fromCodePoint(pattern.codePointAt(at)!);
  return { end: at + codePoint.length, literal: codePoint };
}

function classEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']' && i > open + 1) return i;
  }
  return -1;
}

function groupEnd(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') i++;
    else if (char === '[') {
      i = classEnd(pattern, i);
      if (i < 0) return -1;
    } else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i;
  }
  return -1;
}
