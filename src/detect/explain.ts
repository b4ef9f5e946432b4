import type { RawState } from '../protocol/states.ts';
import type { CompiledManifest } from './compiled.ts';
import { checkTime, clockOf, fallbackVerdict, ruleVerdict } from './evaluate.ts';
import { clip, matchContext, matches } from './match.ts';
import { RegionReader } from './regions.ts';
import type { ScreenMemory } from './screen-memory.ts';
import type { DetectInput, ManifestRef, Verdict, VisibleFlags } from './types.ts';

const PREVIEW_LINES = 3;

export interface RuleEvidence {
  matcher: string | null; // the matchers that passed, in order; null when the rule did not match
  region_size: number; // lines in the rule's region
  preview: string; // the last lines of the region, clipped
  time: string | null; // the rule's time conditions as judged (motion, quiet); null when it has none
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

/**
 * Evaluates every rule (no early exit) and reports what each one saw. With a memory it judges time
 * conditions as `evaluate` would at `input.at`, and leaves the memory unchanged.
 */
export function explain(compiled: CompiledManifest, input: DetectInput, memory?: ScreenMemory): Explain {
  const reader = new RegionReader(input);
  const clocked = clockOf(input, memory);
  let verdict: Verdict | null = null;
  const evaluated: EvaluatedRule[] = compiled.rules.map((rule) => {
    const trace: string[] = [];
    const ctx = matchContext(reader, trace, rule.logical, rule.spec.truncationMinPrefix);
    let matched = matches(rule, rule.spec.region, ctx);
    const time = matched ? checkTime(rule, ctx, clocked, true) : null;
    if (time && !time.ok) matched = false;
    if (matched && !verdict) verdict = ruleVerdict(compiled, rule);
    const view = reader.get(rule.spec.region, rule.logical);
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
        time: time?.note ?? null,
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
