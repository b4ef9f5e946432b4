import { LIMITS } from './limits.ts';

export const REGION_KINDS = [
  'whole_recent',
  'bottom_lines',
  'bottom_non_empty_lines',
  'top_non_empty_lines',
  'after_last_horizontal_rule',
  'prompt_box_body',
  'above_prompt_box',
  'after_last_prompt_marker',
  'below_match',
  'above_match',
  'osc_title',
  'osc_progress',
] as const;
export type RegionKind = (typeof REGION_KINDS)[number];

/** Regions cut relative to the rule's anchor (the last line its first line_regex matched): gates only. */
export const RELATIVE: ReadonlySet<RegionKind> = new Set(['below_match', 'above_match']);

const COUNTED: ReadonlySet<RegionKind> = new Set(['bottom_lines', 'bottom_non_empty_lines', 'top_non_empty_lines']);

/** A parsed region name: `bottom_lines(8)` is `{kind: 'bottom_lines', count: 8}`. */
export interface RegionSpec {
  kind: RegionKind;
  count: number;
  name: string; // canonical spelling, used as the cache key and in explain
}

/** Parses a region name; returns an error message (naming the allowed forms) instead of throwing. */
export function parseRegion(text: string): RegionSpec | string {
  const match = /^([a-z_]+)(?:\((\d+)\))?$/.exec(text.trim());
  const allowed = REGION_KINDS.map((kind) => (COUNTED.has(kind) ? `${kind}(N)` : kind)).join(', ');
  if (!match) return `region "${text}" is not a region name; allowed: ${allowed}`;
  const kind = match[1] as RegionKind;
  if (!(REGION_KINDS as readonly string[]).includes(kind)) return `unknown region "${kind}"; allowed: ${allowed}`;
  if (COUNTED.has(kind)) {
    if (match[2] === undefined) return `region ${kind} needs a line count, as in ${kind}(8)`;
    const count = Number(match[2]);
    if (count < 1 || count > LIMITS.maxRegionLines) return `region ${kind}(${count}): N must be within 1..${LIMITS.maxRegionLines}`;
    return { kind, count, name: `${kind}(${count})` };
  }
  if (match[2] !== undefined) return `region ${kind} takes no line count`;
  return { kind, count: 0, name: kind };
}
