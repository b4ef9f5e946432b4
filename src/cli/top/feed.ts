import { DisposableStore } from '../../base/disposable.ts';
import { SerialReads } from '../../base/serial-reads.ts';
import { CorralError } from '../../protocol/errors.ts';
import { EVENT } from '../../protocol/notifications.ts';
import { AGENT_GET } from '../../protocol/methods/agent.ts';
import { EVENTS_SUBSCRIBE, type AnyCorralEvent } from '../../protocol/methods/events.ts';
import { INBOX_LIST } from '../../protocol/methods/inbox.ts';
import type { DaemonConnection } from '../with-daemon.ts';
import type { TopRows } from './rows.ts';

/**
 * Keeps TopRows current from the daemon's event stream, never by polling: the subscription's
 * snapshot fills the rows, then each event about a pane re-reads that pane's agent (one read in
 * flight per pane; events arriving meanwhile fold into one more read). Events that arrive before the
 * snapshot is applied wait for it, so an older snapshot never overwrites a newer read. The attention
 * inbox is listed once after subscribing, on the same connection, and kept by its events.
 */
export class TopFeed {
  private ready = false;
  private readonly waiting = new Set<string>();
  private readonly reads = new SerialReads((id) => this.readAgent(id));
  private readonly subscriptions = new DisposableStore();

  constructor(
    private readonly client: DaemonConnection,
    private readonly rows: TopRows,
    private readonly changed: () => void,
  ) {}

  async start(): Promise<void> {
    this.subscriptions.add(
      this.client.onNotification(EVENT, (event) => {
        if (event.pane === null) return;
        if (this.rows.inbox.apply(event as AnyCorralEvent) !== null) this.changed();
        if (event.kind === 'inbox.added' || event.kind === 'inbox.acknowledged') return;
        if (event.kind === 'pane.removed') {
          this.rows.remove(event.pane.id);
          this.changed();
        } else if (this.ready) this.read(event.pane.id);
        else this.waiting.add(event.pane.id);
      }),
    );
    const { snapshot } = await this.client.call(EVENTS_SUBSCRIBE, {});
    this.rows.reset(snapshot.agents);
    this.rows.inbox.applyList((await this.client.call(INBOX_LIST, {})).items);
    this.ready = true;
    for (const id of this.waiting) this.read(id);
    this.waiting.clear();
    this.changed();
  }

  dispose(): void {
    this.subscriptions.dispose();
  }

  private read(id: string): void {
    void this.reads.request(id);
  }

  private readAgent(id: string): Promise<void> {
    return this.client
      .call(AGENT_GET, { target: id })
      .then(
        (info) => this.rows.update(info),
        (error: unknown) => {
          if (error instanceof CorralError && error.code === 'pane_not_found') this.rows.remove(id);
        },
      )
      .finally(() => this.changed());
  }
}
