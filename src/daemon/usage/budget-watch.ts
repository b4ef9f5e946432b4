import type { BudgetCrossing, UsageTokens } from '../../protocol/usage.ts';
import type { Budget } from '../config/budgets-config.ts';
import type { PriceTable } from './price-table.ts';
import type { RecordTracker } from './record-tracker.ts';
import { addTokens, tokenSum, ZERO } from './usage-ledger.ts';

/** Crossings remembered (a key per budget, subject, period and threshold); the oldest go first. */
const MAX_CROSSED = 10_000;
const THRESHOLDS = [80, 100] as const;

/** A crossing to tell: the budget's figures and the pane it is told on. */
export interface Crossed {
  crossing: BudgetCrossing;
  paneId: string;
}

/** When the budget's current period began: local midnight, local Monday midnight, or the record's start. */
export function periodStart(period: Budget['period'], now: number, sessionSince: number): number {
  if (period === 'session') return sessionSince;
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  if (period === 'week') day.setDate(day.getDate() - ((day.getDay() + 6) % 7));
  return day.getTime();
}

/**
 * Budgets against the usage read (docs/usage.md, "Budgets"): each evaluation finds every subject of
 * each budget (a pane, a workspace, the host), sums what it spent in the budget's period, and tells each
 * crossing of 80% and 100% once: the crossings told are kept by the caller across restarts. A subject at
 * or over 100% holds its panes (`held`) until its period turns.
 */
export class BudgetWatch {
  private readonly crossed: Set<string>;
  held = new Map<string, BudgetCrossing>();
  /** Each pane's highest crossing standing in its budget's current period (AgentUsage `budget`): at 100% before 80%. */
  standing = new Map<string, BudgetCrossing>();

  constructor(crossed: readonly string[] = []) {
    this.crossed = new Set(crossed.slice(-MAX_CROSSED));
  }

  get crossedKeys(): string[] {
    return [...this.crossed];
  }

  evaluate(budgets: readonly Budget[], trackers: readonly RecordTracker[], prices: PriceTable, now: number): Crossed[] {
    const told: Crossed[] = [];
    const held = new Map<string, BudgetCrossing>();
    const standing = new Map<string, BudgetCrossing>();
    for (const budget of budgets) {
      for (const subject of subjects(budget, trackers)) {
        const current = subject.filter((tracker) => tracker.current);
        if (current.length === 0) continue;
        const sessionSince = Math.min(...current.map((tracker) => tracker.since));
        const start = periodStart(budget.period, now, sessionSince);
        const counted = budget.period === 'session' ? current : subject;
        const spent = spend(budget, counted, start, prices);
        const limit = (budget.tokens ?? budget.money)!;
        const newest = current.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a));
        const subjectKey = budget.scope === 'agent' ? newest.paneId : budget.scope === 'workspace' ? newest.label.workspace : budget.scope;
        for (const percent of THRESHOLDS) {
          if (spent < (limit * percent) / 100) continue;
          const crossing: BudgetCrossing = {
            budget: budget.name,
            scope: budget.scope,
            period: budget.period,
            unit: budget.tokens !== null ? 'tokens' : 'money',
            limit,
            spent,
            percent: String(percent) as '80' | '100',
            periodStart: start,
          };
          if (percent === 100) for (const tracker of current) if (!held.has(tracker.paneId)) held.set(tracker.paneId, crossing);
          for (const tracker of current) if (higher(crossing, standing.get(tracker.paneId))) standing.set(tracker.paneId, crossing);
          const key = `${budget.name}\0${subjectKey}\0${start}\0${percent}`;
          if (this.crossed.has(key)) continue;
          this.crossed.add(key);
          if (this.crossed.size > MAX_CROSSED) this.crossed.delete(this.crossed.values().next().value!);
          told.push({ crossing, paneId: newest.paneId });
        }
      }
    }
    this.held = held;
    this.standing = standing;
    return told;
  }
}

/** Whether crossing `a` says more than `b`: 100% before 80%, then the larger share of its limit. */
function higher(a: BudgetCrossing, b: BudgetCrossing | undefined): boolean {
  if (b === undefined) return true;
  if (a.percent !== b.percent) return a.percent === '100';
  return a.spent / a.limit > b.spent / b.limit;
}

/** The budget's subjects: the records of each pane, workspace or the whole host it applies to. */
function subjects(budget: Budget, trackers: readonly RecordTracker[]): RecordTracker[][] {
  if (budget.scope === 'host' || budget.scope === 'fleet') return [[...trackers]];
  const groups = new Map<string, RecordTracker[]>();
  for (const tracker of trackers) {
    const key = budget.scope === 'agent' ? tracker.paneId : tracker.label.workspace;
    if (budget.match !== null) {
      const names = budget.scope === 'agent' ? [tracker.label.name, tracker.label.agent, tracker.paneId] : [tracker.label.workspace];
      if (!names.includes(budget.match)) continue;
    }
    groups.set(key, [...(groups.get(key) ?? []), tracker]);
  }
  return [...groups.values()];
}

/** Tokens (all four kinds) or money spent by the records since `start`; unpriced models add no money. */
function spend(budget: Budget, trackers: readonly RecordTracker[], start: number, prices: PriceTable): number {
  let total = 0;
  for (const tracker of trackers) {
    const models = budget.period === 'session' ? tracker.ledger.models : tracker.ledger.since(start);
    for (const [model, tokens] of models) {
      if (budget.tokens !== null) total += tokenSum(tokens);
      else total += prices.cost(model, tokens) ?? 0;
    }
  }
  return total;
}

export function sumTokens(list: Iterable<UsageTokens>): UsageTokens {
  const sum = { ...ZERO };
  for (const tokens of list) addTokens(sum, tokens);
  return sum;
}
