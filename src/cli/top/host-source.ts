import { AGENT_FOCUS } from '../../protocol/methods/agent-query.ts';
import type { Disposable } from '../../base/disposable.ts';
import { followConnection } from '../../client/index.ts';
import { POLICY_STATUS, type PolicyStatus } from '../../protocol/methods/policy.ts';
import { EVENT } from '../../protocol/notifications.ts';
import type { DaemonConnection } from '../with-daemon.ts';
import { renderFrame } from './render.ts';
import { TopRows } from './rows.ts';
import type { AttachPlace, SourceFrame, TopSource } from './top-source.ts';

/** The live view of one daemon: its live agents (src/client/live-agents.ts), fed by its event stream alone. */
export class HostSource implements TopSource {
  private readonly rows = new TopRows();
  private feed: Disposable | null = null;
  /** The approval policy as the top line says it; null when the daemon has none loaded (or knows none). */
  private policy: string | null = null;
  private policyEvents: { dispose(): void } | null = null;

  constructor(private readonly client: DaemonConnection) {}

  async start(changed: () => void): Promise<void> {
    this.rows.live.onChange(() => changed());
    // The policy's status is read again whenever the daemon says it changed (policy.changed).
    const readPolicy = () =>
      this.client.call(POLICY_STATUS, {}).then(
        (status) => {
          this.policy = policyWord(status);
          changed();
        },
        () => undefined,
      );
    this.policyEvents = this.client.onNotification(EVENT, (event) => {
      if (event.kind === 'policy.changed') void readPolicy();
    });
    this.feed = await followConnection(this.client, this.rows.live);
    await readPolicy();
    changed();
  }

  order(): string[] {
    return this.rows.sorted().map((row) => row.id);
  }

  frame(options: SourceFrame): string[] {
    const sorted = this.rows.sorted();
    return renderFrame(sorted, {
      cols: options.cols,
      height: options.height,
      now: options.now,
      selected: sorted.findIndex((row) => row.id === options.selected),
      color: true,
      needing: this.rows.needing(),
      policy: this.policy,
      ...(options.status ? { status: options.status } : {}),
    });
  }

  async focus(id: string): Promise<string> {
    await this.client.call(AGENT_FOCUS, { target: id });
    return `marked ${id} seen`;
  }

  attachPlace(id: string): AttachPlace {
    return { connection: this.client, target: id, endsTop: true };
  }

  onLost(listener: (error: Error) => void) {
    return this.client.onClose((error) => listener(new Error(`lost the daemon: ${error.message}`)));
  }

  dispose(): void {
    this.feed?.dispose();
    this.rows.live.dispose();
    this.policyEvents?.dispose();
  }
}

/** `on`, `dry-run` or `paused`; null when no rule is loaded or the mode is off. */
function policyWord(status: PolicyStatus): string | null {
  if (status.rules === 0 || status.mode === 'off') return null;
  return status.paused ? 'paused' : status.mode;
}
