import { ManifestError, type SourcePosition } from './errors.ts';
import { expandGlyphClasses } from './glyphs.ts';
import { compileRe2, type Pattern } from './pattern.ts';
import type { KeyPath } from './positions.ts';

/** A pattern written with this prefix is case-insensitive. */
export const CASE_INSENSITIVE = '(?i)';

/** Where compile errors point: a function from a key path to a source position, when the source is known. */
export type Locate = (path: KeyPath) => SourcePosition | null;

/**
 * Compiles one pattern: RE2 syntax (regex-dialect.ts: linear time, no backreferences or lookaround);
 * a leading `(?i)` makes it case-insensitive; `{name}` is a glyph class (glyphs.ts). The error names
 * the manifest's owner (a rule, a prompt reader, or identity.argv_patterns) and the pattern as written.
 */
export function compilePattern(pattern: string, path: KeyPath, owner: string, locate: Locate): Pattern {
  const insensitive = pattern.startsWith(CASE_INSENSITIVE);
  const source = insensitive ? pattern.slice(CASE_INSENSITIVE.length) : pattern;
  const expanded = expandGlyphClasses(source);
  if ('error' in expanded) throw new ManifestError('manifest_bad_regex', `${owner}: pattern ${JSON.stringify(pattern)}: ${expanded.error}`, locate(path));
  try {
    return compileRe2(pattern, source, expanded.source, insensitive);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ManifestError('manifest_bad_regex', `${owner}: pattern ${JSON.stringify(pattern)} does not compile: ${reason}`, locate(path));
  }
}
