import type { CompiledManifest } from './compiled.ts';
import { checkTime, clockOf, fallbackVerdict, ruleVerdict } from './evaluate.ts';
import { clip, matchContext, matches } from './match.ts';
import { RegionReader } from './regions.ts';
import type { ScreenMemory } from './screen-memory.ts';
import type { DetectionExplain, EvaluatedRule } from '../protocol/explain.ts';
import type { DetectInput, Verdict } from './types.ts';

const PREVIEW_LINES = 3;

/** The wire shape lives in src/protocol/explain.ts; detection produces it. */
export type { DetectionExplain as Explain, EvaluatedRule, RuleEvidence } from '../protocol/explain.ts';

/**
 * Evaluates every rule (no early exit) and reports what each one saw. With a memory it judges time
 * conditions as `evaluate` would at `input.at`, and leaves the memory unchanged.
 */
export function explain(compiled: CompiledManifest, input: DetectInput, memory?: ScreenMemory): DetectionExplain {
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
        regionSize: view.lines.length,
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
    fallbackReason: final.fallbackReason,
    visible: final.visible,
    skipStateUpdate: final.skipStateUpdate,
    evaluatedRules: evaluated,
    manifest: final.manifest,
  };
}
