import { AGENT_FOCUS } from '../../protocol/methods/agent-query.ts';
import type { DaemonConnection } from '../with-daemon.ts';
import { TopFeed } from './feed.ts';
import { renderFrame } from './render.ts';
import { TopRows } from './rows.ts';
import type { AttachPlace, SourceFrame, TopSource } from './top-source.ts';

/** The live view of one daemon: its agents by pane id, fed by its event stream (feed.ts). */
export class HostSource implements TopSource {
  private readonly rows = new TopRows();
  private feed: TopFeed | null = null;

  constructor(private readonly client: DaemonConnection) {}

  start(changed: () => void): Promise<void> {
    this.feed = new TopFeed(this.client, this.rows, changed);
    return this.feed.start();
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
  }
}
