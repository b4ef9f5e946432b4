import { CorralError } from '../../protocol/errors.ts';
import type { AgentWaitResult } from '../../protocol/methods/agent-wait.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { AgentWait, type WaitSpec } from './pending-wait.ts';
import { ChangeLedger } from './change-ledger.ts';
import type { TargetFacts } from './wait-match.ts';

/**
 * Every pending `agent.wait`, woken by the changes of the panes it names: each published agent change
 * (seen flips and releases included), each pane exit and removal. One subscription each, routed by pane.
 * It also keeps the ledger of turns that `sinceSeq` is judged by, from the daemon's start.
 */
export class WaitHub implements Disposable {
  private readonly ledger: ChangeLedger;
  private readonly byPane = new Map<string, Set<AgentWait>>();
  private readonly removed = new Set<PaneRecord>();
  private readonly subscriptions = new DisposableStore();

  constructor(
    registry: PaneRegistry,
    private readonly agents: AgentService,
    history?: ConstructorParameters<typeof ChangeLedger>[0],
  ) {
    this.ledger = new ChangeLedger(history);
    this.subscriptions.add(
      agents.onChange((change) => {
        this.ledger.record(change);
        this.wake(change.pane.id);
      }),
    );
    this.subscriptions.add(registry.onExited((pane) => this.wake(pane.id)));
    this.subscriptions.add(
      registry.onRemoved((info) => {
        this.ledger.forget(info.id);
        for (const wait of this.waitsOn(info.id)) {
          for (const target of wait.spec.targets) if (target.pane.id === info.id) this.removed.add(target.pane);
          wait.evaluate();
        }
      }),
    );
  }

  /** Pending waits, for tests and status. */
  get size(): number {
    return new Set([...this.byPane.values()].flatMap((waits) => [...waits])).size;
  }

  /** Starts a wait; `signal` (the client's connection) cancels it. */
  wait(spec: WaitSpec, signal: AbortSignal): Promise<AgentWaitResult> {
    const wait = new AgentWait(spec, { facts: (pane) => this.facts(pane), seq: () => this.agents.stateChangeSeq }, (w) => this.forget(w));
    for (const { pane } of spec.targets) {
      const waits = this.byPane.get(pane.id) ?? new Set();
      this.byPane.set(pane.id, waits);
      waits.add(wait);
    }
    const onAbort = () => wait.cancel(new CorralError('cancelled', 'the client disconnected; the wait was cancelled'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    void wait.result.finally(() => signal.removeEventListener('abort', onAbort)).catch(() => {});
    wait.start();
    return wait.result;
  }

  /** Whether the pane's last agent was released and none identified since: such a target is gone, not unknown. */
  released(pane: PaneRecord): boolean {
    return this.ledger.turnOf(pane.id).released;
  }

  dispose(): void {
    this.subscriptions.dispose();
    const pending = new Set([...this.byPane.values()].flatMap((waits) => [...waits]));
    for (const wait of pending) wait.cancel(new CorralError('shutting_down', 'the daemon is stopping; the wait was cancelled'));
    this.byPane.clear();
  }

  private facts(pane: PaneRecord): TargetFacts {
    const turn = this.ledger.turnOf(pane.id);
    const gone: TargetFacts = { present: false, paneExited: true, agent: null, state: 'unknown', stateSince: 0, turnSeq: turn.turnSeq, released: true };
    if (this.removed.has(pane)) return gone;
    const view = this.agents.find(pane)?.view();
    if (!view) return gone; // the pane was disposed: its tracker went with it
    return {
      present: true,
      paneExited: pane.lifecycle !== 'running',
      agent: view.agent,
      state: view.displayed,
      stateSince: this.agents.stateSince(pane, view),
      turnSeq: turn.turnSeq,
      released: turn.released,
    };
  }

  private wake(paneId: string): void {
    for (const wait of this.waitsOn(paneId)) wait.evaluate();
  }

  private waitsOn(paneId: string): AgentWait[] {
    return [...(this.byPane.get(paneId) ?? [])];
  }

  private forget(wait: AgentWait): void {
    for (const { pane } of wait.spec.targets) {
      const waits = this.byPane.get(pane.id);
      waits?.delete(wait);
      if (waits?.size === 0) this.byPane.delete(pane.id);
    }
    // A removed pane is remembered only while some wait still names it.
    for (const pane of this.removed) if (!this.byPane.has(pane.id)) this.removed.delete(pane);
  }
}
