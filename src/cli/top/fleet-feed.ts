import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import { SerialReads } from '../../base/serial-reads.ts';
import { qualify, splitHostTarget, type Fleet, type FleetEvent, type HostStatus } from '../../client/index.ts';
import { CorralError } from '../../protocol/errors.ts';
import type { FleetTopRows } from './fleet-rows.ts';

/**
 * Keeps FleetTopRows current from the fleet (src/client/fleet/), never by polling, as TopFeed does
 * for one host: each host's list fills its rows when it connects (again after a drop), then each of
 * its events about a pane re-reads that pane's agent on that host (one read in flight per pane; events
 * meanwhile fold into one more read). Events that come before the host's list is applied wait for it.
 * A host that goes away keeps its rows; they show stale by its status until its list replaces them.
 */
export class FleetTopFeed implements Disposable {
  /** Hosts whose list was applied since they last connected. */
  private readonly ready = new Set<string>();
  /** Per host, which fill is the newest: an older list answering late is dropped. */
  private readonly fills = new Map<string, number>();
  private readonly waiting = new Map<string, Set<string>>();
  /** By pane id qualified by host. */
  private readonly reads = new SerialReads((key) => this.readAgent(key));
  private readonly subscriptions = new DisposableStore();

  constructor(
    private readonly fleet: Fleet,
    private readonly rows: FleetTopRows,
    private readonly changed: () => void,
  ) {}

  start(): void {
    this.subscriptions.add(this.fleet.onHostChange((status) => this.onStatus(status)));
    this.subscriptions.add(this.fleet.subscribe({}, (event) => this.onEvent(event)));
    for (const status of this.fleet.hosts()) {
      this.rows.setStatus(status);
      if (status.state === 'connected') this.fill(status.name);
    }
    this.changed();
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.fills.clear();
  }

  private onStatus(status: HostStatus): void {
    this.rows.setStatus(status);
    this.ready.delete(status.name);
    if (status.state === 'connected') this.fill(status.name);
    this.changed();
  }

  private onEvent(event: FleetEvent): void {
    if (event.pane === null || event.kind === 'inbox.added' || event.kind === 'inbox.acknowledged') return;
    const { host } = event;
    if (event.kind === 'pane.removed') {
      this.rows.remove(host, event.pane.id);
      this.changed();
    } else if (this.ready.has(host)) this.read(host, event.pane.id);
    else {
      const waiting = this.waiting.get(host) ?? new Set<string>();
      waiting.add(event.pane.id);
      this.waiting.set(host, waiting);
    }
  }

  private fill(host: string): void {
    const fill = (this.fills.get(host) ?? 0) + 1;
    this.fills.set(host, fill);
    const link = this.fleet.host(host);
    // What the link took from its subscription shows at once; its list, whole records, replaces it.
    this.rows.reset(host, link.lastKnown());
    link
      .list()
      .then(
        ({ agents }) => {
          if (this.fills.get(host) !== fill) return;
          this.rows.reset(host, agents);
          this.ready.add(host);
          for (const id of this.waiting.get(host) ?? []) this.read(host, id);
          this.waiting.delete(host);
          this.changed();
        },
        () => {}, // dropped again before it answered: its status says so, and the next connect fills it
      );
  }

  private read(host: string, id: string): void {
    void this.reads.request(qualify(id, host));
  }

  private async readAgent(key: string): Promise<void> {
    const { target: id, host } = splitHostTarget(key);
    // A read asked again while its host went away waits for the host's list, which reads it whole.
    if (host === null || !this.ready.has(host)) return;
    await this.fleet
      .callOn(host, 'agent.get', { target: id })
      .then(
        (info) => this.rows.update(host, info),
        (error: unknown) => {
          // Gone from its host: the row goes. A host that went away keeps it, shown stale.
          if (error instanceof CorralError && error.code === 'pane_not_found') this.rows.remove(host, id);
        },
      )
      .finally(() => this.changed());
  }
}
