import type { AgentUsageField } from '../../protocol/usage.ts';

/** 1234 → 1.2k, 2500000 → 2.5M: token counts as a column shows them. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(count < 10_000_000 ? 1 : 0)}M`;
}

/** A cost with its currency; `no price` when none of it is priced, and a `+` when some tokens are not. */
export function formatCost(cost: number | null, unpriced: number, currency: string | null): string {
  if (cost === null) return 'no price';
  const text = `${currency === 'USD' ? '$' : `${currency ?? ''} `}${cost.toFixed(cost < 0.1 ? 4 : cost < 10 ? 2 : 0)}`;
  return unpriced > 0 ? `${text}+` : text;
}

/**
 * An agent's usage as one cell of `agent list` and `top`: tokens in all, and the cost; `?` when unknown;
 * `!80%` or `!100%` after it while the agent stands at that share of a budget (docs/usage.md, "Budgets").
 */
export function usageCell(usage: AgentUsageField | undefined): string {
  if (usage === undefined) return '-';
  if (usage === 'unknown') return '?';
  const total = usage.tokens.input + usage.tokens.output + usage.tokens.cacheRead + usage.tokens.cacheWrite;
  const budget = usage.budget ? ` !${usage.budget.percent}%` : '';
  return `${formatTokens(total)} ${usage.cost === null ? 'no price' : formatCost(usage.cost, 0, usage.currency)}${budget}`;
}
