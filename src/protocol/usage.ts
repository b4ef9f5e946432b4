import { Type, type Static } from '@sinclair/typebox';
import { Literals, Nullable } from './schema.ts';

/** Token counts as the agents' own records give them (docs/usage.md). */
export const UsageTokens = Type.Object(
  {
    input: Type.Number({ description: 'Input tokens not read from or written to the cache.' }),
    output: Type.Number(),
    cacheRead: Type.Number(),
    cacheWrite: Type.Number(),
  },
  { $id: 'UsageTokens', description: "Token counts as the agents' own records give them (docs/usage.md)." },
);
export type UsageTokens = Static<typeof UsageTokens>;

/** One model's share of an agent's usage. */
export const ModelUsage = Type.Object(
  {
    model: Type.String(),
    tokens: UsageTokens,
    cost: Nullable(Type.Number({ description: 'null: the price table has no price for the model ("no price")' })),
  },
  { $id: 'ModelUsage', description: "One model's share of an agent's usage." },
);
export type ModelUsage = Static<typeof ModelUsage>;

/** A budget's crossing of 80% or 100% of its limit in its period. */
export const BudgetCrossing = Type.Object(
  {
    budget: Type.String({ description: 'The budget\'s name (its `name`, or `scope:match/period`).' }),
    scope: Literals(['agent', 'workspace', 'host', 'fleet']),
    period: Literals(['day', 'week', 'session']),
    unit: Literals(['tokens', 'money']),
    limit: Type.Number(),
    spent: Type.Number(),
    percent: Literals(['80', '100']),
    periodStart: Type.Number({ description: 'ms since the epoch' }),
  },
  { $id: 'BudgetCrossing', description: "A budget's crossing of 80% or 100% of its limit in its period." },
);
export type BudgetCrossing = Static<typeof BudgetCrossing>;

/**
 * What an agent spent, read from its own record. `cost` is null when a model used has no price; the
 * table's version (`prices`) is named in every figure.
 */
export const AgentUsage = Type.Object(
  {
    tokens: UsageTokens,
    cost: Nullable(Type.Number()),
    currency: Nullable(Type.String()),
    model: Nullable(Type.String({ description: 'The model of the latest turn read.' })),
    since: Type.Number({ description: 'When Corral began reading the record (ms since the epoch).' }),
    source: Type.String({ description: 'Where the numbers come from: `transcript:claude`, `rollout:codex`, ...' }),
    prices: Nullable(Type.String({ description: 'The price table version the cost is figured by.' })),
    models: Type.Array(ModelUsage),
    skipped: Type.Number({ description: 'Lines of the record skipped: corrupt, truncated or over the line bound.' }),
    updatedAt: Type.Number({ description: 'When the record was last read with something new (ms since the epoch).' }),
    // The budget the agent stands at 80% or more of in its current period (one at 100% first); absent when none.
    budget: Type.Optional(BudgetCrossing),
  },
  { $id: 'AgentUsage', description: "What an agent spent, read from its own record (docs/usage.md)." },
);
export type AgentUsage = Static<typeof AgentUsage>;

/** AgentInfo's `usage`: the figures, or `unknown` for an agent whose record Corral has not been told of. */
export const AgentUsageField = Type.Union([Type.Literal('unknown'), AgentUsage]);
export type AgentUsageField = Static<typeof AgentUsageField>;

export const USAGE_GROUPINGS = ['agent', 'workspace', 'host', 'model'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** One row of a usage rollup. */
export const UsageRow = Type.Object(
  {
    key: Type.String({ description: 'The pane id, workspace, host or model the row sums.' }),
    label: Type.String(),
    tokens: UsageTokens,
    cost: Nullable(Type.Number()),
    unpriced: Type.Number({ description: 'Tokens of models without a price, left out of cost.' }),
  },
  { $id: 'UsageRow', description: 'One row of a usage rollup.' },
);
export type UsageRow = Static<typeof UsageRow>;

