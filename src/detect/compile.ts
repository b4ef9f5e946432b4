import type { CompiledGate, CompiledManifest, CompiledMatcher, CompiledRule } from './compiled.ts';
import type { GateSpec, ManifestSpec, MatcherSpec } from './manifest-spec.ts';
import type { KeyPath } from './positions.ts';
import { compilePattern, type Locate } from './pattern-compile.ts';
import { compileComposer } from './composer-read.ts';
import { compilePromptReaders } from './prompt-compile.ts';

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
    composer: compileComposer(spec.composer ?? null, locate),
  };
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
