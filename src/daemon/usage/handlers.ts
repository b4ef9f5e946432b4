import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { USAGE_REPORT } from '../../protocol/methods/usage.ts';
import type { DaemonCore } from '../agents/core.ts';
import type { Budget } from '../config/budgets-config.ts';
import type { EventHub } from '../events/event-hub.ts';
import { stateDir } from '../private-file.ts';
import { implement, type DaemonPart } from '../rpc/handler.ts';
import type { PriceTable } from './price-table.ts';
import { HeldRecordWatch } from './held-record-watch.ts';
import { UsageService } from './usage-service.ts';

/** At most one `agent.usageChanged` per pane in this long; the newest figures go out at its end. */
export const USAGE_EVENT_MS = 5000;
const DAY = 86_400_000;

/** `usage-<socket hash>.json` beside the daemon's other state files. */
export function usageFilePath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), `usage-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}.json`);
}

/** The user's own price table, beside config.toml. */
export function userPricesPath(configPath: string): string {
  return join(dirname(configPath), 'prices.toml');
}

/**
 * Usage and budgets (docs/usage.md): follows each record an agent's hooks or its process name, publishes
 * `agent.usageChanged` (coalesced per pane) and `budget.crossed` on the hub, and serves `usage.report`.
 */
export function startUsage(
  core: DaemonCore,
  options: { hub: EventHub; prices: PriceTable; budgets: readonly Budget[]; path: string | null },
): DaemonPart & { readonly usage: UsageService } {
  const { registry, agents, log } = core;
  const agentOf = (pane: Parameters<typeof agents.info>[0]) => agents.find(pane)?.view().agent ?? null;
  const usage = new UsageService({ registry, log, prices: options.prices, budgets: options.budgets, path: options.path, agentOf });
  const named = agents.onRecordNamed(({ pane, format, path }) => usage.follow(pane, format, path));
  // Copilot CLI's record is named by its live process, not by a hook.
  const held = new HeldRecordWatch({ registry, agents, log, follow: (pane, format, path) => usage.follow(pane, format, path) });
  const field = agents.registerExtra('usage', (paneId) => usage.usageOf(paneId));
  const coalesce = new UsageEvents((paneId) => {
    const pane = registry.get(paneId);
    const figures = usage.usageOf(paneId);
    if (pane && figures !== 'unknown') options.hub.publish('agent.usageChanged', { id: pane.id, name: pane.name }, { agent: agentOf(pane), usage: figures }, agentOf(pane));
  });
  const changes = usage.onUsage(({ paneId }) => coalesce.changed(paneId));
  const crossings = usage.onCrossed(({ crossing, paneId }) => {
    const pane = registry.get(paneId);
    log.info({ pane: paneId, budget: crossing.budget, percent: crossing.percent, spent: crossing.spent }, 'budget crossed');
    options.hub.publish('budget.crossed', pane ? { id: pane.id, name: pane.name } : { id: paneId, name: null }, { crossing }, pane ? agentOf(pane) : null);
  });
  return {
    usage,
    handlers: [
      implement(USAGE_REPORT, ({ since, by }) => {
        const from = since ?? Date.now() - DAY;
        const grouping = by ?? 'agent';
        const { rows, unknown } = usage.report(from, grouping);
        return { since: from, by: grouping, rows, currency: usage.prices.currency, prices: usage.prices.version, unknown };
      }),
    ],
    dispose: () => {
      field.dispose();
      named.dispose();
      held.dispose();
      changes.dispose();
      crossings.dispose();
      coalesce.dispose();
      usage.dispose();
    },
  };
}

/**
 * Holds back a pane's usage events to one per USAGE_EVENT_MS; the figures are read when the event goes
 * out, so they are the newest, and none are figured for the changes held back.
 */
class UsageEvents {
  private readonly last = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(private readonly send: (paneId: string) => void) {}

  changed(paneId: string): void {
    if (this.pending.has(paneId)) return;
    const since = Date.now() - (this.last.get(paneId) ?? 0);
    if (since >= USAGE_EVENT_MS) return this.emit(paneId);
    const timer = setTimeout(() => {
      this.pending.delete(paneId);
      this.emit(paneId);
    }, USAGE_EVENT_MS - since);
    timer.unref();
    this.pending.set(paneId, timer);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private emit(paneId: string): void {
    this.last.set(paneId, Date.now());
    this.send(paneId);
  }
}
