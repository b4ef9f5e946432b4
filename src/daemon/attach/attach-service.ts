import type { DetachReason } from '../../protocol/methods/attach.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { Connection } from '../rpc/connection.ts';
import type { Logger } from '../logger.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { Attachment } from './attachment.ts';

/**
 * Every attached client, by pane. Any number of connections may mirror one pane; each gets the same
 * output. Attaching and detaching mark the pane seen, and while a client is attached a pane that
 * becomes done is marked seen at once: the person is watching it.
 */
export class AttachService implements Disposable {
  private readonly byPane = new Map<string, Set<Attachment>>();
  private readonly subscriptions = new DisposableStore();

  constructor(
    registry: PaneRegistry,
    private readonly agents: AgentService,
    private readonly log: Logger,
  ) {
    this.subscriptions.add(registry.onRemoved((info) => this.endAll(info.id, 'removed')));
    this.subscriptions.add(
      agents.onChange((change) => {
        if (change.info.state !== 'done' || !this.byPane.has(change.pane.id)) return;
        // Not from inside the listener: marking seen publishes a change of its own.
        setImmediate(() => this.markSeen(change.pane));
      }),
    );
  }

  /** How many clients mirror the pane. */
  count(paneId: string): number {
    return this.byPane.get(paneId)?.size ?? 0;
  }

  /** Attaches the connection to the pane, or repaints it when already attached. */
  attach(pane: PaneRecord, connection: Connection): Attachment {
    pane.assertRunning();
    const existing = this.find(pane.id, connection);
    if (existing) {
      existing.sendRedraw();
      return existing;
    }
    const attachment = new Attachment(pane, connection, (ended) => this.forget(ended));
    const set = this.byPane.get(pane.id) ?? new Set();
    set.add(attachment);
    this.byPane.set(pane.id, set);
    this.markSeen(pane);
    this.log.debug({ pane: pane.id, connection: connection.id, clients: set.size }, 'client attached');
    return attachment;
  }

  /** Ends the connection's attachment to the pane; false when it had none. */
  detach(pane: PaneRecord, connection: Connection): boolean {
    const attachment = this.find(pane.id, connection);
    if (!attachment) return false;
    attachment.dispose();
    if (pane.lifecycle === 'running') this.markSeen(pane);
    return true;
  }

  dispose(): void {
    this.subscriptions.dispose();
    for (const set of [...this.byPane.values()]) for (const attachment of [...set]) attachment.dispose();
    this.byPane.clear();
  }

  private find(paneId: string, connection: Connection): Attachment | undefined {
    for (const attachment of this.byPane.get(paneId) ?? []) if (attachment.connection === connection) return attachment;
    return undefined;
  }

  private endAll(paneId: string, reason: DetachReason): void {
    for (const attachment of [...(this.byPane.get(paneId) ?? [])]) attachment.end(reason);
  }

  private forget(attachment: Attachment): void {
    const set = this.byPane.get(attachment.pane.id);
    set?.delete(attachment);
    if (set?.size === 0) this.byPane.delete(attachment.pane.id);
    this.log.debug({ pane: attachment.pane.id, connection: attachment.connection.id }, 'client detached');
  }

  private markSeen(pane: PaneRecord): void {
    if (pane.lifecycle !== 'running') return;
    this.agents.find(pane)?.markSeen(); // none when the pane was removed meanwhile
  }
}
