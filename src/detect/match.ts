import type { CompiledMatcher } from './compiled.ts';
import type { Pattern } from './pattern.ts';
import type { RegionSpec } from './region-spec.ts';
import type { Anchor, RegionReader, RegionView } from './regions.ts';
import { findTruncated } from './truncation.ts';

const PREVIEW_CHARS = 80;

/** Collects, for explain, which matcher decided; null on the fast path. */
export type Trace = string[] | null;

/** One rule's evaluation: its options, the anchor its first line_regex set, and the text it matched. */
export interface MatchContext {
  reader: RegionReader;
  trace: Trace;
  /** `lines = "logical"`: soft-wrapped rows read as one line. */
  logical: boolean;
  /** `truncation_min_prefix`: a contains entry also matches a line cut with `…` after this many of its characters. */
  minPrefix: number | null;
  /** Rows of the last line the rule's first line_regex matched; `below_match`/`above_match` are cut from it. */
  anchor: Anchor | null;
  /** The first line a top-level line_regex or regex matched: what `motion_within_ms` watches. */
  subject: string | null;
}

export function matchContext(reader: RegionReader, trace: Trace, logical: boolean, minPrefix: number | null): MatchContext {
  return { reader, trace, logical, minPrefix, anchor: null, subject: null };
}

/** Whether every matcher present passes on the region (gates may cut regions of their own). */
export function matches(matcher: CompiledMatcher, region: RegionSpec, ctx: MatchContext, top = true): boolean {
  const { trace } = ctx;
  const view = ctx.reader.get(region, ctx.logical, ctx.anchor);
  for (const needle of matcher.contains) {
    if (view.lower.includes(needle)) {
      trace?.push(`contains ${JSON.stringify(needle)}`);
      continue;
    }
    const cut = ctx.minPrefix === null ? -1 : findTruncated(view.lowerLines, needle, ctx.minPrefix);
    if (cut < 0) return false;
    trace?.push(`contains ${JSON.stringify(needle)} cut short on line ${cut + 1} of ${view.name}: ${JSON.stringify(clip(view.lines[cut]!))}`);
  }
  for (const pattern of matcher.regex) {
    const hit = pattern.find(view.text, pattern.readsLower ? view.lower : undefined);
    if (hit === null) return false;
    if (top && ctx.subject === null) ctx.subject = firstLine(hit);
    trace?.push(`regex ${pattern.written} hit ${JSON.stringify(clip(hit))}`);
  }
  // Indexed loops, not entries(): this runs for every rule of every busy pane's evaluation, and
  // each entries() loop left an iterator and a pair per step behind.
  for (let i = 0; i < matcher.lineRegex.length; i++) {
    const pattern = matcher.lineRegex[i]!;
    const line = i === 0 && top ? lastMatchingLine(pattern, view) : firstMatchingLine(pattern, view);
    if (line < 0) return false;
    if (i === 0 && top) {
      ctx.anchor = { first: view.firstRows[line] ?? -1, last: view.lastRows[line] ?? -1 };
      ctx.subject = view.lines[line]!;
    }
    trace?.push(`line_regex ${pattern.written} hit ${ctx.logical ? 'logical ' : ''}line ${line + 1} of ${view.name}: ${JSON.stringify(clip(view.lines[line]!))}`);
  }
  for (const gate of matcher.all) {
    if (!matches(gate, gate.region ?? region, ctx, false)) return false;
  }
  if (matcher.any.length > 0) {
    const passed = matcher.any.findIndex((gate) => matches(gate, gate.region ?? region, ctx, false));
    if (passed < 0) return false;
    trace?.push(`any[${passed}] passed`);
  }
  for (let i = 0; i < matcher.not.length; i++) {
    const gate = matcher.not[i]!;
    if (matches(gate, gate.region ?? region, trace === null ? ctx : { ...ctx, trace: null }, false)) {
      trace?.push(`not[${i}] blocked the rule`);
      return false;
    }
  }
  return true;
}

function firstMatchingLine(pattern: Pattern, view: RegionView): number {
  const lines = view.lines;
  const lower = pattern.readsLower ? view.lowerLines : null;
  for (let i = 0; i < lines.length; i++) if (pattern.test(lines[i]!, lower?.[i])) return i;
  return -1;
}

/** The rule's anchor is the newest line its first line_regex matches: older ones are history. */
function lastMatchingLine(pattern: Pattern, view: RegionView): number {
  const lines = view.lines;
  const lower = pattern.readsLower ? view.lowerLines : null;
  for (let i = lines.length - 1; i >= 0; i--) if (pattern.test(lines[i]!, lower?.[i])) return i;
  return -1;
}

function firstLine(text: string): string {
  const trimmed = text.replace(/^\n+/, '');
  const end = trimmed.indexOf('\n');
  return end < 0 ? trimmed : trimmed.slice(0, end);
}

export function clip(text: string, max = PREVIEW_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
