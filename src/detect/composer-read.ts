import type { ComposerSpec } from './composer-spec.ts';
import type { Pattern } from './pattern.ts';
import { compilePattern, type Locate } from './pattern-compile.ts';
import { RegionReader } from './regions.ts';
import type { DetectInput } from './types.ts';

export interface CompiledComposer {
  spec: ComposerSpec;
  prefix: Pattern;
  end: Pattern | null;
  empty: Pattern[];
}

/** What the input box holds: `draft` is '' when it is empty or shows its placeholder. */
export interface ComposerReading {
  draft: string;
}

/** Compiles a manifest's `[composer]` once; a pattern that does not compile names it. */
export function compileComposer(spec: ComposerSpec | null, locate: Locate): CompiledComposer | null {
  if (spec === null) return null;
  const owner = 'composer';
  return {
    spec,
    prefix: compilePattern(spec.prefix, ['composer', 'prefix'], owner, locate),
    end: spec.end === null ? null : compilePattern(spec.end, ['composer', 'end'], owner, locate),
    empty: spec.empty.map((pattern, i) => compilePattern(pattern, ['composer', 'empty', i], owner, locate)),
  };
}

/** Characters a box draws that are no text: the zero-width space Qwen Code 0.24.4 draws at its cursor. */
const INVISIBLE = /[\u200b\u200c\u200d\u2060\ufeff]/g;

/**
 * Reads the input box from a screen: the newest line of the region its prefix matches starts it, the
 * lines under it continue it (up to `end` or the region's end). Null when no box is on screen (a dialog
 * covers it, another program runs): then nothing is known of a draft.
 */
export function readComposer(composer: CompiledComposer, input: DetectInput): ComposerReading | null {
  const lines = new RegionReader(input).get(composer.spec.region).lines;
  let first = -1;
  for (let i = lines.length - 1; i >= 0 && first < 0; i--) if (composer.prefix.test(lines[i]!)) first = i;
  if (first < 0) return null;
  const head = lines[first]!;
  const drawn = [head.slice(composer.prefix.find(head)!.length)];
  for (let i = first + 1; i < lines.length; i++) {
    if (composer.end?.test(lines[i]!)) break;
    drawn.push(lines[i]!);
  }
  const draft = drawn
    .map((line) => line.replace(INVISIBLE, '').trimEnd())
    .map((line, i) => (i === 0 ? line.trimStart() : line))
    .join('\n')
    .trim();
  if (draft === '' || composer.empty.some((pattern) => pattern.test(draft))) return { draft: '' };
  return { draft };
}
