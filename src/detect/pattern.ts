import { RE2JS, RE2JSException, RE2JSSyntaxException, RE2Set } from 're2js';
import { toRe2Syntax } from './regex-dialect.ts';
import { requiredLiterals } from './required-literals.ts';

/**
 * A compiled manifest pattern. It runs on RE2 (re2js), whose time is linear in the text's length
 * for every pattern: a hostile rule such as `(a+)+$` cannot stall the daemon on any screen.
 */
export interface Pattern {
  /** The pattern as the manifest wrote it, without a leading `(?i)` and before glyph classes were expanded. */
  readonly source: string;
  /** The whole pattern as written, in slashes, for explain: `/(?i)^\s*esc to cancel/`. */
  readonly written: string;
  /** Whether `test` and `find` read `lower` (a case-insensitive pattern with literals to look for first). */
  readonly readsLower: boolean;
  /** Whether it matches anywhere in `text`; `lower` is `text.toLowerCase()` when the caller has it. */
  test(text: string, lower?: string): boolean;
  /** The leftmost match in `text` (the same one a backtracking engine would report), or null. */
  find(text: string, lower?: string): string | null;
}

/** Compiles an expanded pattern (see regex-dialect.ts), or throws an Error whose message says why not. */
export function compileRe2(written: string, source: string, expanded: string, caseInsensitive: boolean): Pattern {
  const translated = toRe2Syntax(expanded);
  if ('error' in translated) throw new Error(translated.error);
  const flags = caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0;
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(translated.source, flags);
  } catch (error) {
    // The engine's own description ("missing closing )"), not its echo of the rewritten source.
    if (error instanceof RE2JSSyntaxException) throw new Error(error.getDescription());
    if (error instanceof RE2JSException) throw new Error(error.message);
    throw error;
  }
  const literals = requiredLiterals(expanded, caseInsensitive);
  // The engine's unanchored search reads the whole text even after `^` failed at its first character:
  // a pattern that can only match at the start is searched anchored there, which stops at the first
  // character no match can continue from (and at the first match). No groups: the lazy DFA runs.
  const engine = regex.re2();
  const run = translated.anchored
    ? (text: string) => engine.matchWithGroup(text, 0, text.length, RE2Set.ANCHOR_START, 0)[0] === true
    : (text: string) => regex.test(text);
  const test = (text: string, lower?: string): boolean => {
    const haystack = caseInsensitive ? lower : text;
    if (haystack !== undefined) for (const literal of literals) if (!haystack.includes(literal)) return false;
    return run(text);
  };
  return {
    source,
    written: `/${written}/`,
    readsLower: caseInsensitive && literals.length > 0,
    test,
    find: (text, lower) => {
      // test() runs on the lazy DFA; only a hit pays for the matcher that finds its bounds.
      if (!test(text, lower)) return null;
      const matcher = regex.matcher(text);
      return matcher.find() ? matcher.group() : null;
    },
  };
}
