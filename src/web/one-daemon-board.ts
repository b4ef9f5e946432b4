import { ClientError, type CorralClient } from '../client/index.ts';
import { Board } from './board.ts';
import type { PaneRoute, WebBoard } from './web-board.ts';
import type { PolicyStatus } from '../protocol/methods/policy.ts';
import type { BoardCard, WebHost } from './wire.ts';

/** A plain `corral web`: one daemon's board, every target and id as that daemon names it. Closing it closes the client. */
export class OneDaemonBoard implements WebBoard {
  private readonly board: Board;
  readonly onChange;

  constructor(private readonly client: CorralClient) {
    this.board = new Board(client);
    this.onChange = this.board.onChange;
  }

  watch(viewer: object, ids: readonly string[] | null): void {
    this.board.watch(viewer, ids);
  }

  unwatch(viewer: object): void {
    this.board.unwatch(viewer);
  }

  start(): Promise<void> {
    return this.board.start();
  }

  list(): BoardCard[] {
    return this.board.list();
  }

  hosts(): WebHost[] {
    return [];
  }

  policy(): PolicyStatus | null {
    return this.board.policy();
  }

  route(target: string): PaneRoute {
    return { host: null, client: this.client, target, known: this.board.paneIdOf(target), qualify: (id) => id };
  }

  host(name: string): CorralClient {
    throw new ClientError('host_not_found', `this corral web serves one daemon and has no host ${name}; run corral web --fleet for the hosts of the fleet`);
  }

  close(): void {
    this.board.close();
    this.client.close();
  }
}
