import type { Disposable } from '../../base/disposable.ts';
import type { PaneSpawnOptions } from '../types.ts';
import { Emitter } from '../../base/emitter.ts';
import type { HostClient } from './host-client.ts';
import { attachHost } from './launch.ts';
import { RemotePane } from './remote-pane.ts';

export interface RecoveredPane {
  /** What the daemon stored with the pane when it spawned it. */
  meta: unknown;
  pane: RemotePane;
}

/**
 * The daemon's view of its pty host: the panes found there at attach (recovered), new panes, and
 * the two ways to leave: detach (agents keep running) or shutdown (every pane ends).
 */
export class TerminalHost implements Disposable {
  private readonly lostListeners = new Emitter<void>();
  private closeSubscription: Disposable | null = null;

  private constructor(
    private readonly socketPath: string,
    private client: HostClient | null,
    readonly pid: number,
    readonly started: boolean,
    readonly recovered: RecoveredPane[],
    readonly ringBytes: number,
  ) {
    if (client) this.watch(client);
  }

  /** Finds the host beside `socketPath` or starts one, and adopts every pane it holds. */
  static async attach(socketPath: string): Promise<TerminalHost> {
    const { client, hello, started } = await attachHost(socketPath);
    const recovered = hello.panes.map((info) => ({ meta: info.meta, pane: new RemotePane(client, info, { recovered: true }) }));
    return new TerminalHost(socketPath, client, hello.pid, started, recovered, hello.ringBytes);
  }

  /** Fires when the connection to the host is lost (the host died): its panes are lost. */
  onLost(listener: () => void): Disposable {
    return this.lostListeners.event(listener);
  }

  async spawn(options: PaneSpawnOptions, meta: unknown): Promise<RemotePane> {
    let client = this.client;
    if (client === null || !client.connected) {
      // The host died under us: a new one serves new panes.
      const attached = await attachHost(this.socketPath);
      client = this.client = attached.client;
      this.watch(client);
    }
    const info = await client.spawn(meta, options);
    return new RemotePane(client, info, { recovered: false });
  }

  /** Stores `meta` with the pane in the host, for the next daemon to recover. */
  updateMeta(pane: RemotePane, meta: unknown): void {
    this.client?.send({ t: 'meta', handle: pane.handle, meta });
  }

  /** Ends every pane by the one policy and lets the host exit. */
  async shutdown(): Promise<void> {
    await this.client?.shutdown();
    this.dispose();
  }

  /** Leaves the host and its panes running. */
  dispose(): void {
    this.closeSubscription?.dispose();
    this.client?.dispose();
    this.client = null;
    this.lostListeners.dispose();
  }

  private watch(client: HostClient): void {
    this.closeSubscription?.dispose();
    this.closeSubscription = client.onClose(() => {
      if (this.client === client) this.lostListeners.fire();
    });
  }
}
