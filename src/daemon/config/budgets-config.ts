import { isPlainObject } from '../../protocol/plain-object.ts';

export const BUDGET_SCOPES = ['agent', 'workspace', 'host', 'fleet'] as const;
export const BUDGET_PERIODS = ['day', 'week', 'session'] as const;
const MAX_BUDGETS = 256;

/** One `[[budgets]]` table of config.toml (docs/usage.md, "Budgets"). */
export interface Budget {
  /** Its name in events and inbox items: `name`, else `scope[:match]/period`. */
  name: string;
  scope: (typeof BUDGET_SCOPES)[number];
  /** agent: a pane name or agent id; workspace: a workspace name; null: each one of the scope. */
  match: string | null;
  period: (typeof BUDGET_PERIODS)[number];
  /** Exactly one of the two is set: a limit in tokens (all four kinds), or in the price table's currency. */
  tokens: number | null;
  money: number | null;
}

const KEYS = ['name', 'scope', 'match', 'period', 'tokens', 'money'];

/** Checks the `budgets` array of tables; answers the problem with the index of the budget at fault. */
export function readBudgets(value: unknown): Budget[] | { index: number | null; problem: string } {
  if (!Array.isArray(value) || value.length > MAX_BUDGETS) return { index: null, problem: `"budgets" must be an array of at most ${MAX_BUDGETS} tables ([[budgets]])` };
  const budgets: Budget[] = [];
  for (const [index, entry] of value.entries()) {
    const at = `budgets[${index}]`;
    const fail = (problem: string) => ({ index, problem: `${at}: ${problem}` });
    if (!isPlainObject(entry)) return fail('must be a table');
    const unknown = Object.keys(entry).find((key) => !KEYS.includes(key));
    if (unknown !== undefined) return fail(`unknown key "${unknown}" (known: ${KEYS.join(', ')})`);
    const { name, scope, match, period, tokens, money } = entry;
    if (!(BUDGET_SCOPES as readonly unknown[]).includes(scope)) return fail(`"scope" must be one of ${BUDGET_SCOPES.map((s) => `"${s}"`).join(', ')}`);
    if (!(BUDGET_PERIODS as readonly unknown[]).includes(period)) return fail(`"period" must be one of ${BUDGET_PERIODS.map((p) => `"${p}"`).join(', ')}`);
    if (match !== undefined && (typeof match !== 'string' || match === '' || match.length > 128)) return fail('"match" must be a name of 1 to 128 characters');
    if (match !== undefined && (scope === 'host' || scope === 'fleet')) return fail(`"match" applies to the agent and workspace scopes only`);
    if (name !== undefined && (typeof name !== 'string' || name === '' || name.length > 64)) return fail('"name" must be a name of 1 to 64 characters');
    if ((tokens === undefined) === (money === undefined)) return fail('give a limit as exactly one of "tokens" or "money"');
    if (tokens !== undefined && (typeof tokens !== 'number' || !Number.isSafeInteger(tokens) || tokens < 1)) return fail('"tokens" must be a whole number of tokens, at least 1');
    if (money !== undefined && (typeof money !== 'number' || !Number.isFinite(money) || money <= 0 || money > 1e9)) return fail('"money" must be an amount above 0 in the price table\'s currency');
    const typedScope = scope as Budget['scope'];
    const typedMatch = (match as string | undefined) ?? null;
    const budget: Budget = {
      name: (name as string | undefined) ?? `${typedScope}${typedMatch !== null ? `:${typedMatch}` : ''}/${period as string}`,
      scope: typedScope,
      match: typedMatch,
      period: period as Budget['period'],
      tokens: (tokens as number | undefined) ?? null,
      money: (money as number | undefined) ?? null,
    };
    if (budgets.some((other) => other.name === budget.name)) return fail(`another budget is named "${budget.name}"; give each its own "name"`);
    budgets.push(budget);
  }
  return budgets;
}
