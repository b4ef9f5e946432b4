import type { CompiledManifest, CompiledRule } from './compiled.ts';
import { matches } from './match.ts';
import { RegionReader } from './regions.ts';
import type { DetectInput, Verdict } from './types.ts';

const NO_FLAGS = { idle: false, blocker: false, working: false } as const;

/** The verdict of one manifest on one snapshot: the highest-priority matching rule, else the fallback. */
export function evaluate(compiled: CompiledManifest, input: DetectInput): Verdict {
  const reader = new RegionReader(input);
  for (const rule of compiled.rules) {
    if (matches(rule, rule.spec.region, reader, null)) return ruleVerdict(compiled, rule);
  }
  return fallbackVerdict(compiled);
}

export function ruleVerdict(compiled: CompiledManifest, rule: CompiledRule): Verdict {
  const { spec } = rule;
  return {
    agent: compiled.spec.id,
    state: spec.state,
    rule: { id: spec.id, priority: spec.priority, region: spec.region.name },
    fallbackReason: null,
    visible: { idle: spec.visibleIdle, blocker: spec.visibleBlocker, working: spec.visibleWorking },
    skipStateUpdate: spec.skipStateUpdate,
    manifest: compiled.ref,
  };
}

export function fallbackVerdict(compiled: CompiledManifest): Verdict {
  const { fallback, rules } = compiled.spec;
  return {
    agent: compiled.spec.id,
    state: fallback,
    rule: null,
    fallbackReason: `no rule matched (${rules.length} evaluated); manifest fallback is ${fallback}`,
    visible: { ...NO_FLAGS },
    skipStateUpdate: false,
    manifest: compiled.ref,
  };
}
