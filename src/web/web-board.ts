import type { Event } from '../base/emitter.ts';
import type { CorralClient } from '../client/index.ts';
import type { BoardChange } from './board.ts';
import type { PolicyStatus } from '../protocol/methods/policy.ts';
import type { BoardCard, WebHost } from './wire.ts';

/** What pages are told of: a board's changes, and with --fleet a host that changed state. */
export type WebBoardChange = BoardChange | { kind: 'hosts' };

/** The daemon a page's target is on, and the target as that daemon knows it. */
export interface PaneRoute {
  /** The host's name with --fleet; null for the one daemon of a plain `corral web`. */
  host: string | null;
  client: CorralClient;
  target: string;
  /** The pane's id on that daemon when the board has its card (by id or name): nothing to read before acting on it. */
  known: string | null;
  /** A pane id of that daemon as pages know it (`w1:p1@build` with --fleet). */
  qualify(id: string): string;
}

/**
 * The board `corral web` serves, of one daemon (`OneDaemonBoard`) or of every host of the fleet
 * (`FleetBoard`): the cards, their changes, the hosts, and which daemon a page's target is on.
 */
export interface WebBoard {
  readonly onChange: Event<WebBoardChange>;
  /**
   * A page shows these cards (ids as pages know them; null: every card, until it says): working
   * agents' tails are read again only for cards some page shows (src/web/board.ts).
   */
  watch(viewer: object, ids: readonly string[] | null): void;
  unwatch(viewer: object): void;
  start(): Promise<void>;
  list(): BoardCard[];
  hosts(): WebHost[];
  /** The daemon's approval policy; null with --fleet (each host runs its own) or a daemon with none. */
  policy(): PolicyStatus | null;
  /** Where a page's target is; fails with `host_not_found` or `daemon_unreachable` (a host away). */
  route(target: string): PaneRoute;
  /** A host's daemon, for a call that names no pane (its policy's kill switch); fails as route does. */
  host(name: string): CorralClient;
  close(): void;
}
