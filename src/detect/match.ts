import type { CompiledMatcher } from './compiled.ts';
import type { RegionSpec } from './region-spec.ts';
import type { RegionReader, RegionView } from './regions.ts';

const PREVIEW_CHARS = 80;

/** Collects, for explain, which matcher decided; null on the fast path. */
export type Trace = string[] | null;

/** Whether every matcher present passes on the region (gates may cut regions of their own). */
export function matches(matcher: CompiledMatcher, region: RegionSpec, reader: RegionReader, trace: Trace): boolean {
  const view = reader.get(region);
  for (const needle of matcher.contains) {
    if (!view.lower.includes(needle)) return false;
    trace?.push(`contains ${JSON.stringify(needle)}`);
  }
  for (const pattern of matcher.regex) {
    const hit = pattern.exec(view.text);
    if (!hit) return false;
    trace?.push(`regex ${pattern} hit ${JSON.stringify(clip(hit[0]))}`);
  }
  for (const pattern of matcher.lineRegex) {
    const line = firstMatchingLine(pattern, view);
    if (line < 0) return false;
    trace?.push(`line_regex ${pattern} hit line ${line + 1} of ${view.name}: ${JSON.stringify(clip(view.lines[line]!))}`);
  }
  for (const gate of matcher.all) {
    if (!matches(gate, gate.region ?? region, reader, trace)) return false;
  }
  if (matcher.any.length > 0) {
    const passed = matcher.any.findIndex((gate) => matches(gate, gate.region ?? region, reader, trace));
    if (passed < 0) return false;
    trace?.push(`any[${passed}] passed`);
  }
  for (const [i, gate] of matcher.not.entries()) {
    if (matches(gate, gate.region ?? region, reader, null)) {
      trace?.push(`not[${i}] blocked the rule`);
      return false;
    }
  }
  return true;
}

function firstMatchingLine(pattern: RegExp, view: RegionView): number {
  const lines = view.lines;
  for (let i = 0; i < lines.length; i++) if (pattern.test(lines[i]!)) return i;
  return -1;
}

export function clip(text: string, max = PREVIEW_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
