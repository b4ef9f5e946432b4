import { DisposableStore, toDisposable } from '../../base/disposable.ts';
import { LOCAL_HOST, shellQuote, splitHostTarget, type Fleet, type HostSpec } from '../../client/index.ts';
import { renderFleetFrame } from './fleet-render.ts';
import { FleetTopRows } from './fleet-rows.ts';
import type { AttachPlace, SourceFrame, TopSource } from './top-source.ts';

/**
 * `corral --host HOST attach` for a pane on another host: attach holds a terminal, which the fleet's
 * connections (ssh without one, src/client/fleet/ssh-endpoint.ts) do not carry. `--host` takes the
 * `[[hosts]]` name as its whole entry (ssh options, command, socket), so the line reaches the same
 * daemon the fleet does.
 */
export function attachHint(spec: HostSpec, target: string): string {
  return `${target}@${spec.name} is on another host and attach holds a terminal: run \`corral --host ${shellQuote(spec.name)} attach ${shellQuote(target)}\``;
}

/** The live view of every host of the fleet: rows grouped by host, each named `ID@HOST` (fleet-rows.ts). */
export class FleetSource implements TopSource {
  private readonly rows: FleetTopRows;
  private readonly subscriptions = new DisposableStore();
  private changed = () => {};
  /** The newest warning about a host (its daemon speaks another protocol major): on screen, not over it on stderr. */
  private notice: string | null = null;

  constructor(private readonly fleet: Fleet) {
    this.rows = new FleetTopRows(fleet.hosts().map((status) => ({ status, live: fleet.host(status.name).agents })));
  }

  /** Each host's live agents and status, as the fleet keeps them: no reads, no list of its own. */
  async start(changed: () => void): Promise<void> {
    this.changed = changed;
    this.subscriptions.add(
      this.fleet.onHostChange((status) => {
        this.rows.setStatus(status);
        changed();
      }),
    );
    for (const status of this.fleet.hosts()) {
      this.rows.setStatus(status);
      this.subscriptions.add(this.fleet.host(status.name).agents.onChange(() => changed()));
    }
    changed();
  }

  warn(message: string): void {
    this.notice = message;
    this.changed();
  }

  order(): string[] {
    return this.rows.order();
  }

  frame(options: SourceFrame): string[] {
    return renderFleetFrame(this.rows.groups(), { ...options, color: true, ...(this.notice !== null ? { notice: this.notice } : {}) });
  }

  async focus(id: string): Promise<string> {
    const { host, target } = this.split(id);
    await this.fleet.callOn(host, 'agent.focus', { target });
    return `marked ${id} seen`;
  }

  attachPlace(id: string): AttachPlace | { hint: string } {
    const { host, target } = this.split(id);
    const link = this.fleet.host(host);
    if (link.spec.ssh !== null) return { hint: attachHint(link.spec, target) };
    return { connection: link.live(), target, endsTop: false };
  }

  onLost() {
    return toDisposable(() => {}); // a host that goes away shows offline; the view goes on with the others
  }

  dispose(): void {
    this.subscriptions.dispose();
  }

  /** A row's id is `ID@HOST` (FleetTopRows.order). */
  private split(id: string): { host: string; target: string } {
    const split = splitHostTarget(id);
    return { host: split.host ?? LOCAL_HOST, target: split.target };
  }
}
