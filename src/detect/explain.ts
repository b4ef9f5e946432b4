import type { RawState } from '../protocol/states.ts';
import type { CompiledManifest } from './compiled.ts';
import { fallbackVerdict, ruleVerdict } from './evaluate.ts';
import { clip, matches } from './match.ts';
import { RegionReader } from './regions.ts';
import type { DetectInput, ManifestRef, Verdict, VisibleFlags } from './types.ts';

const PREVIEW_LINES = 3;

export interface RuleEvidence {
  matcher: string | null; // the matchers that passed, in order; null when the rule did not match
  region_size: number; // lines in the rule's region
  preview: string; // the last lines of the region, clipped
}

export interface EvaluatedRule {
  id: string;
  state: RawState;
  priority: number;
  region: string;
  matched: boolean;
  evidence: RuleEvidence;
}

/** The JSON shape of `agent explain`: the verdict plus every rule in evaluation order. */
export interface Explain {
  agent: string;
  state: RawState;
  rule: { id: string; priority: number; region: string } | null;
  fallback_reason: string | null;
  visible: VisibleFlags;
  skip_state_update: boolean;
  evaluated_rules: EvaluatedRule[];
  manifest: ManifestRef;
}

/** Evaluates every rule (no early exit) and reports what each one saw. */
export function explain(compiled: CompiledManifest, input: DetectInput): Explain {
  const reader = new RegionReader(input);
  let verdict: Verdict | null = null;
  const evaluated: EvaluatedRule[] = compiled.rules.map((rule) => {
    const trace: string[] = [];
    const matched = matches(rule, rule.spec.region, reader, trace);
    if (matched && !verdict) verdict = ruleVerdict(compiled, rule);
    const view = reader.get(rule.spec.region);
    return {
      id: rule.spec.id,
      state: rule.spec.state,
      priority: rule.spec.priority,
      region: rule.spec.region.name,
      matched,
      evidence: {
        matcher: matched ? trace.join('; ') : null,
        region_size: view.lines.length,
        preview: view.lines.slice(-PREVIEW_LINES).map((line) => clip(line.trim(), 60)).join(' ⏎ '),
      },
    };
  });
  const final: Verdict = verdict ?? fallbackVerdict(compiled);
  return {
    agent: final.agent,
    state: final.state,
    rule: final.rule,
    fallback_reason: final.fallbackReason,
    visible: final.visible,
    skip_state_update: final.skipStateUpdate,
    evaluated_rules: evaluated,
    manifest: final.manifest,
  };
}
