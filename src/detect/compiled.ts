import type { CompiledComposer } from './composer-read.ts';
import type { ManifestRef } from './types.ts';
import type { ManifestSpec, RuleSpec } from './manifest-spec.ts';
import type { Pattern } from './pattern.ts';
import type { CompiledPromptReader } from './prompt-compile.ts';
import type { RegionSpec } from './region-spec.ts';

/** A matcher with its patterns compiled; `contains` entries are stored lower-cased. */
export interface CompiledMatcher {
  contains: string[];
  regex: Pattern[];
  lineRegex: Pattern[];
  all: CompiledGate[];
  any: CompiledGate[];
  not: CompiledGate[];
}

export interface CompiledGate extends CompiledMatcher {
  region: RegionSpec | null;
}

export interface CompiledRule extends CompiledMatcher {
  spec: RuleSpec;
  logical: boolean;
}

export interface CompiledIdentity {
  executables: ReadonlySet<string>;
  packages: readonly string[];
  argvPatterns: readonly Pattern[];
}

/** One manifest ready for evaluation: rules sorted by priority (highest first, then file order). */
export interface CompiledManifest {
  spec: ManifestSpec;
  ref: ManifestRef;
  rules: readonly CompiledRule[];
  identity: CompiledIdentity;
  /** Prompt readers in file order; the first whose dialog is on screen reads it. */
  prompts: readonly CompiledPromptReader[];
  /** How to read and empty the input box, or null when the manifest has no `[composer]`. */
  composer: CompiledComposer | null;
}
