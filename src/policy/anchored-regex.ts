import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/** A policy's regex: RE2 (linear time, no backreferences or lookaround), matched against the whole text. */
export interface AnchoredRegex {
  readonly source: string;
  matches(text: string): boolean;
}

/** Compiles `source` as RE2, or returns why it cannot be (RE2 refuses `\1`, `(?=`, `(?<=` and their kin). */
export function compileAnchored(source: string): AnchoredRegex | { error: string } {
  if (source.length > 2000) return { error: 'is longer than 2000 characters' };
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) return { error: `is not an RE2 regex: ${error.getDescription()} (backreferences and lookaround are not RE2)` };
    if (error instanceof RE2JSException) return { error: `is not an RE2 regex: ${error.message}` };
    throw error;
  }
  // matches() is anchored at both ends: `npm test` never matches `npm test && curl x | sh`.
  return { source, matches: (text) => regex.matches(text) };
}
