import { AGENT_FOCUS } from '../../protocol/methods/agent-query.ts';
import type { Disposable } from '../../base/disposable.ts';
import { followConnection } from '../../client/index.ts';
import type { DaemonConnection } from '../with-daemon.ts';
import { renderFrame } from './render.ts';
import { TopRows } from './rows.ts';
import type { AttachPlace, SourceFrame, TopSource } from './top-source.ts';

/** The live view of one daemon: its live agents (src/client/live-agents.ts), fed by its event stream alone. */
export class HostSource implements TopSource {
  private readonly rows = new TopRows();
  private feed: Disposable | null = null;

  constructor(private readonly client: DaemonConnection) {}

  async start(changed: () => void): Promise<void> {
    this.rows.live.onChange(() => changed());
    this.feed = await followConnection(this.client, this.rows.live);
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
  }
}
