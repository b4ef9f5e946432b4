import type { CompiledManifest, CompiledRule } from './compiled.ts';
import { matchContext, matches, type MatchContext } from './match.ts';
import { RegionReader } from './regions.ts';
import type { ScreenMemory } from './screen-memory.ts';
import type { DetectInput, Verdict } from './types.ts';

const NO_FLAGS = { idle: false, blocker: false, working: false } as const;

/** Where time-conditioned rules read the time and what they remember; null: time is not judged. */
export interface Clocked {
  at: number;
  memory: ScreenMemory;
}

/** The outcome of a rule's time conditions at one moment. */
export interface TimeCheck {
  ok: boolean;
  /** When the outcome would flip with no new output (motion running out, quiet reached); null: never. */
  recheckAt: number | null;
  /** For explain: what was judged; null when the rule has no time condition. */
  note: string | null;
}

/**
 * The verdict of one manifest on one snapshot: the highest-priority matching rule, else the
 * fallback. With a memory and `input.at`, rules with `motion_within_ms` or `quiet_for_ms` are judged
 * against the time; without them those conditions are not judged (saved screens have no time).
 */
export function evaluate(compiled: CompiledManifest, input: DetectInput, memory?: ScreenMemory): Verdict {
  const reader = new RegionReader(input);
  const clocked = clockOf(input, memory);
  clocked?.memory.observeScreen(compiled.ref, reader.lines, clocked.at);
  let recheckAt: number | null = null;
  for (const rule of compiled.rules) {
    const ctx = matchContext(reader, null, rule.logical, rule.spec.truncationMinPrefix);
    if (!matches(rule, rule.spec.region, ctx)) {
      if (clocked && rule.spec.motionWithinMs !== null) clocked.memory.forget(rule.spec.id, false);
      continue;
    }
    const time = checkTime(rule, ctx, clocked, false);
    if (time.recheckAt !== null) recheckAt = recheckAt === null ? time.recheckAt : Math.min(recheckAt, time.recheckAt);
    if (time.ok) return clocked ? { ...ruleVerdict(compiled, rule), recheckAt, screenChangedAt: clocked.memory.screenChangedAt } : { ...ruleVerdict(compiled, rule), recheckAt };
  }
  return clocked ? { ...fallbackVerdict(compiled), recheckAt, screenChangedAt: clocked.memory.screenChangedAt } : { ...fallbackVerdict(compiled), recheckAt };
}

export function clockOf(input: DetectInput, memory: ScreenMemory | undefined): Clocked | null {
  return memory && input.at !== undefined && input.at !== null ? { at: input.at, memory } : null;
}

/** Judges a matched rule's time conditions; `peek` (explain) leaves the memory as it was. */
export function checkTime(rule: CompiledRule, ctx: MatchContext, clocked: Clocked | null, peek: boolean): TimeCheck {
  const { motionWithinMs, quietForMs } = rule.spec;
  if (motionWithinMs === null && quietForMs === null) return { ok: true, recheckAt: null, note: null };
  if (!clocked && rule.spec.motionOnly) return { ok: false, recheckAt: null, note: 'motion only: no clock (a saved screen), so no motion to see' };
  if (!clocked) return { ok: true, recheckAt: null, note: 'time not judged (no clock: a saved screen)' };
  const { at, memory } = clocked;
  const notes: string[] = [];
  let ok = true;
  let recheckAt: number | null = null;
  if (motionWithinMs !== null) {
    const subject = ctx.subject ?? ctx.reader.get(rule.spec.region, rule.logical).text;
    // A motion_only rule's subject is any text: its first sight (a screen drawn at once) is no motion,
    // now or at the next look; only a change of that text after it was seen is.
    const firstSight = rule.spec.motionOnly && !memory.knows(rule.spec.id);
    const changedAt = memory.subjectChangedAt(rule.spec.id, subject, at, peek, firstSight ? Number.NEGATIVE_INFINITY : at);
    const age = at - changedAt;
    const moving = age <= motionWithinMs;
    const since = Number.isFinite(changedAt) ? `changed ${Math.round(age)} ms ago` : firstSight ? 'first sight' : 'unchanged since first sight';
    notes.push(`motion: ${JSON.stringify(subject.trim().slice(0, 60))} ${since} (needs within ${motionWithinMs})`);
    if (moving) recheckAt = changedAt + motionWithinMs + 1;
    else ok = false;
  }
  if (quietForMs !== null) {
    const quiet = peek ? memory.quietAt(ctx.reader.lines, at) : memory.quietFor(at);
    notes.push(`quiet: screen unchanged for ${Math.round(quiet)} ms (needs ${quietForMs})`);
    if (quiet < quietForMs) {
      ok = false;
      recheckAt = at - quiet + quietForMs;
    }
  }
  return { ok, recheckAt: ok || quietForMs !== null ? recheckAt : null, note: notes.join('; ') };
}

export function ruleVerdict(compiled: CompiledManifest, rule: CompiledRule): Verdict {
  const { spec } = rule;
  return {
    agent: compiled.spec.id,
    state: spec.state,
    rule: spec.weak ? { id: spec.id, priority: spec.priority, region: spec.region.name, weak: true } : { id: spec.id, priority: spec.priority, region: spec.region.name },
    fallbackReason: null,
    visible: { idle: spec.visibleIdle, blocker: spec.visibleBlocker, working: spec.visibleWorking },
    skipStateUpdate: spec.skipStateUpdate,
    manifest: compiled.ref,
    recheckAt: null,
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
    recheckAt: null,
  };
}
