import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';
import { ManifestError } from './errors.ts';
import { expandGlyphClasses } from './glyphs.ts';
import type { Pattern } from './pattern.ts';
import { CASE_INSENSITIVE, compilePattern, type Locate } from './pattern-compile.ts';
import type { KeyPath } from './positions.ts';
import type { PromptReaderSpec } from './prompt-spec.ts';
import { toRe2Syntax } from './regex-dialect.ts';

/** The named groups a choice pattern may capture; `label` is required. */
export const CHOICE_GROUPS = ['label', 'number', 'key', 'cursor'] as const;
type ChoiceGroup = (typeof CHOICE_GROUPS)[number];
export type ChoiceMatch = Partial<Record<ChoiceGroup, string>>;

/** A choice pattern: every match on a line, with its named groups. Linear time, as every manifest pattern. */
export interface ChoicePattern {
  readonly written: string;
  matchAll(line: string): ChoiceMatch[];
}

export interface CompiledPromptReader {
  spec: PromptReaderSpec;
  start: Pattern | null;
  when: Pattern[];
  choice: ChoicePattern | null;
  footer: Pattern | null;
  textSkip: Pattern[];
  textKeep: Pattern[];
  roles: { allowOnce: Pattern | null; allowAlways: Pattern | null; deny: Pattern | null };
}

/** Compiles a manifest's prompt readers once; a pattern that does not compile names its reader. */
export function compilePromptReaders(specs: readonly PromptReaderSpec[], locate: Locate): CompiledPromptReader[] {
  return specs.map((spec) => {
    const path = (key: string): KeyPath => ['prompts', spec.index, key];
    const owner = `prompt reader ${spec.id}`;
    const one = (pattern: string | null, key: string) => (pattern === null ? null : compilePattern(pattern, path(key), owner, locate));
    return {
      spec,
      start: one(spec.start, 'start'),
      when: spec.when.map((pattern) => compilePattern(pattern, path('when'), owner, locate)),
      choice: spec.choice === null ? null : compileChoice(spec.choice, path('choice'), owner, locate),
      footer: one(spec.footer, 'footer'),
      textSkip: spec.textSkip.map((pattern) => compilePattern(pattern, path('text_skip'), owner, locate)),
      textKeep: spec.textKeep.map((pattern) => compilePattern(pattern, path('text_keep'), owner, locate)),
      roles: { allowOnce: one(spec.roles.allowOnce, 'allow_once'), allowAlways: one(spec.roles.allowAlways, 'allow_always'), deny: one(spec.roles.deny, 'deny') },
    };
  });
}

function compileChoice(pattern: string, path: KeyPath, owner: string, locate: Locate): ChoicePattern {
  const bad = (why: string): never => {
    throw new ManifestError('manifest_bad_regex', `${owner}: choice pattern ${JSON.stringify(pattern)}: ${why}`, locate(path));
  };
  const insensitive = pattern.startsWith(CASE_INSENSITIVE);
  const expanded = expandGlyphClasses(insensitive ? pattern.slice(CASE_INSENSITIVE.length) : pattern);
  if ('error' in expanded) bad(expanded.error);
  const translated = toRe2Syntax((expanded as { source: string }).source);
  if ('error' in translated) bad(translated.error);
  let regex: RE2JS | null = null;
  try {
    regex = RE2JS.compile((translated as { source: string }).source, insensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) bad(error.getDescription());
    if (error instanceof RE2JSException) bad(error.message);
    throw error;
  }
  const compiled = regex!;
  const names = Object.keys(compiled.namedGroups());
  const unknown = names.filter((name) => !(CHOICE_GROUPS as readonly string[]).includes(name));
  if (unknown.length > 0) bad(`unknown group ${unknown.map((name) => `(?P<${name}>`).join(', ')}; allowed: ${CHOICE_GROUPS.join(', ')}`);
  if (!names.includes('label')) bad('needs a (?P<label>...) group');
  const groups = names as ChoiceGroup[];
  return {
    written: `/${pattern}/`,
    matchAll(line) {
      const found: ChoiceMatch[] = [];
      const matcher = compiled.matcher(line);
      while (matcher.find()) {
        const match: ChoiceMatch = {};
        for (const name of groups) {
          const value = matcher.group(name);
          if (value !== null && value !== undefined) match[name] = value;
        }
        found.push(match);
        if (matcher.end() === matcher.start()) break; // an empty match would find itself forever
      }
      return found;
    },
  };
}
