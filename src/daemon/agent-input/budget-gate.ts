import { CorralError } from '../../protocol/errors.ts';
import type { BudgetCrossing } from '../../protocol/usage.ts';
import type { PaneRecord } from '../panes/pane-record.ts';

/** Which spent budget holds a pane (daemon/usage/, told through daemon.ts): its queue waits, its prompts are refused. */
export interface BudgetGate {
  held(paneId: string): BudgetCrossing | null;
}

export const NO_BUDGETS: BudgetGate = { held: () => null };

export function budgetExceeded(pane: PaneRecord, crossing: BudgetCrossing): CorralError {
  return new CorralError(
    'budget_exceeded',
    `budget ${crossing.budget} of pane ${pane.label()} is spent for this ${crossing.period}; nothing was typed: pass --force (force: true) to type anyway, or raise the budget in config.toml`,
    { id: pane.id, budget: crossing },
  );
}
