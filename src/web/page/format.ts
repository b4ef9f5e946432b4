import type { AgentUsageField } from '../../protocol/usage.ts';

export const ATTENTION_ORDER = ['blocked', 'done', 'working', 'idle', 'unknown'];

/** The unit an age label counts in: seconds for its first minute, then minutes, hours and days. */
function ageUnit(elapsed: number): { ms: number; suffix: string } {
  if (elapsed < 60_000) return { ms: 1000, suffix: 's' };
  if (elapsed < 3_600_000) return { ms: 60_000, suffix: 'm' };
  if (elapsed < 86_400_000) return { ms: 3_600_000, suffix: 'h' };
  return { ms: 86_400_000, suffix: 'd' };
}

/** "4s", "12m", "3h", "2d": how long an agent has been in its state. */
export function age(since: number, now = Date.now()): string {
  const elapsed = Math.max(0, now - since);
  const { ms, suffix } = ageUnit(elapsed);
  return `${Math.floor(elapsed / ms)}${suffix}`;
}

/** Milliseconds until age(since) says something else: the label's own unit, a second up to a day. */
export function ageChangesIn(since: number, now = Date.now()): number {
  const elapsed = Math.max(0, now - since);
  const { ms } = ageUnit(elapsed);
  return ms - (elapsed % ms);
}

/** An element with a class, text and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = '', ...children: (Node | null)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  for (const child of children) if (child) node.append(child);
  return node;
}

/** What the display metadata says, as short labels: its title, state label and tokens. */
export function metadataLabels(metadata: Record<string, unknown> | null): string[] {
  if (metadata === null) return [];
  const labels: string[] = [];
  for (const key of ['title', 'displayAgent', 'stateLabel', 'tokens']) {
    const value = metadata[key];
    if (typeof value === 'string' || typeof value === 'number') labels.push(key === 'tokens' ? `${value} tokens` : String(value));
  }
  return labels;
}

/** What the agent spent, read from its own record (docs/usage.md): `3.1k tokens · $0.01`; empty while unknown. */
export function usageLabel(usage: AgentUsageField | undefined): string {
  if (usage === undefined || usage === 'unknown') return '';
  const total = usage.tokens.input + usage.tokens.output + usage.tokens.cacheRead + usage.tokens.cacheWrite;
  const tokens = total < 1000 ? String(total) : total < 1_000_000 ? `${(total / 1000).toFixed(1)}k` : `${(total / 1_000_000).toFixed(1)}M`;
  const cost = usage.cost === null ? 'no price' : `${usage.currency === 'USD' ? '$' : `${usage.currency ?? ''} `}${usage.cost.toFixed(usage.cost < 0.1 ? 4 : 2)}`;
  return `${tokens} tokens · ${cost}`;
}

/**
 * The budget share the agent stands at (docs/usage.md, "Budgets"), as a badge: `budget 80%` with its
 * budget and figures on hover; null when it stands at none.
 */
export function budgetBadge(usage: AgentUsageField | undefined): HTMLElement | null {
  if (usage === undefined || usage === 'unknown' || !usage.budget) return null;
  const { budget, percent, spent, limit, unit, period } = usage.budget;
  const badge = el('span', `budget budget-${percent}`, `budget ${percent}%`);
  badge.title = `budget ${budget}: ${unit === 'money' ? spent.toFixed(2) : Math.round(spent)} of ${limit} ${unit === 'money' ? usage.currency ?? '' : 'tokens'} this ${period}${percent === '100' ? '; prompts wait until it turns' : ''}`;
  return badge;
}

/**
 * Milliseconds until this page's next tick of `ms`: ticks fall at `phase` past each multiple of `ms`,
 * so what is due on a page (its age labels, a round of tails) is drawn together, once per tick, and
 * pages given different phases do not all draw at the same instant.
 */
export function nextTick(ms: number, phase: number, now = Date.now()): number {
  return ms - ((((now - phase) % ms) + ms) % ms);
}
