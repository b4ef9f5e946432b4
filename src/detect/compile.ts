import { ManifestError, type SourcePosition } from './errors.ts';
import type { CompiledGate, CompiledManifest, CompiledMatcher, CompiledRule } from './compiled.ts';
import type { GateSpec, ManifestSpec, MatcherSpec } from './manifest-spec.ts';
import type { KeyPath } from './positions.ts';
import { expandGlyphClasses } from './glyphs.ts';
import { compileRe2, type Pattern } from './pattern.ts';
import { compilePromptReaders } from './prompt-compile.ts';

const CASE_INSENSITIVE = '(?i)';

/** Where compile errors point: a function from a key path to a source position, when the source is known. */
export type Locate = (path: KeyPath) => SourcePosition | null;

/** Compiles a validated manifest once; a pattern that does not compile names its rule. */
export function compileManifest(spec: ManifestSpec, source: string, locate: Locate = () => null): CompiledManifest {
  const rules: CompiledRule[] = spec.rules.map((rule) => ({
    ...compileMatcher(rule, ['rules', rule.index], rule.id, locate),
    spec: rule,
    logical: rule.lines === 'logical',
  }));
  rules.sort((a, b) => b.spec.priority - a.spec.priority || a.spec.index - b.spec.index);
  return {
    spec,
    ref: { id: spec.id, version: spec.version, source },
    rules,
    identity: {
      executables: new Set(spec.identity.executables),
      packages: spec.identity.packages,
      argvPatterns: spec.identity.argvPatterns.map((pattern) => compilePattern(pattern, ['identity', 'argv_patterns'], 'identity.argv_patterns', locate)),
    },
    prompts: compilePromptReaders(spec.prompts ?? [], locate),
  };
}

/**
 * Compiles one pattern: RE2 syntax (regex-dialect.ts: linear time, no backreferences or lookaround);
 * a leading `(?i)` makes it case-insensitive; `{name}` is a glyph class (glyphs.ts). The error names
 * the manifest's owner (a rule, or identity.argv_patterns) and the pattern as written.
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

function compileMatcher(matcher: MatcherSpec, path: KeyPath, ruleId: string, locate: Locate): CompiledMatcher {
  const owner = `rule ${ruleId}`;
  const gates = (key: 'all' | 'any' | 'not', list: GateSpec[]): CompiledGate[] =>
    list.map((gate, i) => ({ ...compileMatcher(gate, [...path, key, i], ruleId, locate), region: gate.region }));
  return {
    contains: matcher.contains.map((text) => text.toLowerCase()),
    regex: matcher.regex.map((pattern) => compilePattern(pattern, [...path, 'regex'], owner, locate)),
    lineRegex: matcher.lineRegex.map((pattern) => compilePattern(pattern, [...path, 'line_regex'], owner, locate)),
    all: gates('all', matcher.all),
    any: gates('any', matcher.any),
    not: gates('not', matcher.not),
  };
}
