import type { InboxItem } from '../../protocol/methods/inbox.ts';
import { effectiveQuietHours, quietFor } from './quiet-hours.ts';

/** What a receiver (a push device, the webhook) asked for. */
export interface ReceiverRules {
  states: readonly string[];
  /** Empty or absent: every workspace. */
  workspaces?: readonly string[] | undefined;
  /** Its own quiet hours, `off`, or null/absent for the daemon's. */
  quietHours?: string | null | undefined;
}

/** Send it now, hold it until the quiet hours end (`ms` from now), or never send it to this receiver. */
export type Delivery = { send: true } | { hold: number } | { skip: true };

/** The workspace of a pane, the first part of its id (`api:p3`: src/daemon/panes/pane-registry.ts). */
export function workspaceOf(paneId: string): string {
  const at = paneId.lastIndexOf(':');
  return at <= 0 ? paneId : paneId.slice(0, at);
}

/** A budget at 100% is spent: urgent, it reaches every receiver at once, quiet hours or not. */
export function isSpentBudget(item: InboxItem): boolean {
  return item.state === 'budget' && item.budget?.percent === '100';
}

/**
 * Whether an item goes to a receiver now (docs/web.md, "What each device receives"): a spent budget
 * always and at once; otherwise an item of a state and workspace the receiver asked for, held while
 * its quiet hours last (not dropped: sent when they end, if still unacknowledged).
 */
export function deliveryOf(item: InboxItem, rules: ReceiverRules, daemonQuietHours: string | null, now: Date): Delivery {
  if (isSpentBudget(item)) return { send: true };
  if (!rules.states.includes(item.state)) return { skip: true };
  const workspaces = rules.workspaces ?? [];
  if (workspaces.length > 0 && !workspaces.includes(workspaceOf(item.pane.id))) return { skip: true };
  const quiet = quietFor(effectiveQuietHours(rules.quietHours, daemonQuietHours), now);
  return quiet === null ? { send: true } : { hold: quiet };
}
