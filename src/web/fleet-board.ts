import { DisposableStore } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import { ClientError, connect, LOCAL_HOST, qualify, shortReason, splitHostTarget, type CorralClient, type Fleet, type HostStatus } from '../client/index.ts';
import { Board, type BoardChange } from './board.ts';
import type { PaneRoute, WebBoard, WebBoardChange } from './web-board.ts';
import type { BoardCard, WebHost } from './wire.ts';

/** How long a host that is connected but whose board could not start waits before it is tried again. */
const RETRY_MS = 1000;

/** One host's part of the board: a live Board while the host is connected, else its last known cards. */
interface HostPart {
  readonly name: string;
  client: CorralClient | null;
  board: Board | null;
  /** The live board has drawn its first whole board: until then the last known cards stand. */
  live: boolean;
  /** The cards as they were when the host went away, shown stale. */
  lastKnown: BoardCard[];
  /** Moves on at each drop, so that an attach begun before it gives up. */
  generation: number;
  attaching: boolean;
}

/**
 * `corral web --fleet`: one board of every host (docs/fleet.md). Each host the fleet's link reaches
 * gets a Board of its own, over a client of its own through that host's endpoint (ssh for another
 * machine); its cards and ids are qualified by host (`w1:p1@build`). A host that goes away keeps its
 * last known cards, marked stale (never idle), and its Board is dropped; when it is back a new Board
 * takes a fresh snapshot, so nothing the host did meanwhile is missed. The others go on undisturbed.
 */
export class FleetBoard implements WebBoard {
  private readonly parts = new Map<string, HostPart>();
  private readonly changes = new Emitter<WebBoardChange>();
  readonly onChange = this.changes.event;
  private readonly subscriptions = new DisposableStore();
  /** What each page shows, as it said it (qualified ids): told to each host's board, and to one that starts later. */
  private readonly watching = new Map<object, readonly string[] | null>();
  private closed = false;

  /** Takes the fleet over: closing the board closes it. */
  constructor(
    private readonly fleet: Fleet,
    private readonly log: (message: string) => void,
  ) {
    for (const { name } of fleet.hosts()) this.parts.set(name, { name, client: null, board: null, live: false, lastKnown: [], generation: 0, attaching: false });
  }

  watch(viewer: object, ids: readonly string[] | null): void {
    this.watching.set(viewer, ids);
    for (const part of this.parts.values()) if (part.board) part.board.watch(viewer, idsOn(ids, part.name));
  }

  unwatch(viewer: object): void {
    this.watching.delete(viewer);
    for (const part of this.parts.values()) part.board?.unwatch(viewer);
  }

  /** Starts the board of every host reached by now; the others join as they connect. */
  async start(): Promise<void> {
    this.subscriptions.add(this.fleet.onHostChange((status) => this.onHost(status)));
    await Promise.all(this.fleet.hosts().filter((host) => host.state === 'connected').map((host) => this.attach(this.parts.get(host.name)!)));
  }

  list(): BoardCard[] {
    return [...this.parts.values()].flatMap((part) => (part.live && part.board ? part.board.list().map((card) => onHost(card, part.name, false)) : part.lastKnown.map((card) => onHost(card, part.name, true))));
  }

  /** Each host runs its own policy (`corral policy` on that host): it is on the host's line (hosts()), and the fleet's board has none. */
  policy(): null {
    return null;
  }

  hosts(): WebHost[] {
    return this.fleet.hosts().map(({ name, state, since, reason, code }) => {
      const part = this.parts.get(name);
      const policy = part?.live && part.board ? part.board.policy() : null;
      return { name, state, since, reason, why: shortReason(code, reason), policy };
    });
  }

  route(target: string): PaneRoute {
    const split = splitHostTarget(target);
    const name = split.host ?? LOCAL_HOST;
    const part = this.livePart(name);
    return { host: name, client: part.client!, target: split.target, known: part.board?.paneIdOf(split.target) ?? null, qualify: (id) => qualify(id, name) };
  }

  host(name: string): CorralClient {
    return this.livePart(name).client!;
  }

  /** The host's part while its board is live; else `host_not_found` or `daemon_unreachable`, saying why. */
  private livePart(name: string): HostPart {
    const link = this.fleet.host(name); // host_not_found, naming the hosts there are
    link.live(); // daemon_unreachable while the host is away, with why and since when
    const part = this.parts.get(name)!;
    if (!part.live || part.client === null) throw new ClientError('daemon_unreachable', `host ${name} is connected, but its board is still starting; try again in a moment`);
    return part;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscriptions.dispose();
    for (const part of this.parts.values()) this.drop(part);
    this.fleet.close();
    this.changes.dispose();
  }

  private onHost(status: HostStatus): void {
    const part = this.parts.get(status.name);
    if (part === undefined || this.closed) return;
    this.changes.fire({ kind: 'hosts' });
    if (status.state === 'connected') return void this.attach(part);
    if (part.board === null && !part.attaching) return;
    if (part.live && part.board) part.lastKnown = part.board.list();
    this.drop(part);
    this.log(`host ${part.name} is ${status.state}${status.reason ? ` (${status.reason})` : ''}: its cards show their last known states, stale`);
    this.changes.fire({ kind: 'reset' });
  }

  private drop(part: HostPart): void {
    part.generation++;
    part.board?.close();
    part.client?.close();
    part.board = null;
    part.client = null;
    part.live = false;
  }

  /** A board for the host over a client of its own; tried again while the host stays connected. */
  private async attach(part: HostPart): Promise<void> {
    if (part.board !== null || part.attaching || this.closed) return;
    part.attaching = true;
    const generation = part.generation;
    const current = () => !this.closed && part.generation === generation;
    try {
      const client = await connect({ endpoint: this.fleet.host(part.name).endpoint, onWarning: (message) => this.log(`host ${part.name}: ${message}`) });
      if (!current()) return void client.close();
      const board = new Board(client);
      for (const [viewer, ids] of this.watching) board.watch(viewer, idsOn(ids, part.name));
      part.client = client;
      part.board = board;
      board.onChange((change) => this.forward(part, board, change));
      await board.start();
    } catch (error) {
      if (!current()) return;
      this.log(`host ${part.name}: the board could not start (${(error as Error).message}); trying again`);
      this.drop(part);
      setTimeout(() => {
        if (!this.closed && this.fleet.host(part.name).status().state === 'connected') void this.attach(part);
      }, RETRY_MS).unref();
    } finally {
      part.attaching = false;
    }
  }

  /** A host board's change as pages know it: its ids qualified by host. */
  private forward(part: HostPart, board: Board, change: BoardChange): void {
    if (part.board !== board || this.closed) return;
    if (change.kind === 'reset') {
      part.live = true;
      part.lastKnown = [];
      return this.changes.fire(change);
    }
    if (!part.live) return; // the first whole board, to come, carries it
    const name = part.name;
    if (change.kind === 'card') this.changes.fire({ kind: 'card', card: onHost(change.card, name, false) });
    else if (change.kind === 'tails') this.changes.fire({ kind: 'tails', cards: change.cards.map((card) => onHost(card, name, false)) });
    else if (change.kind === 'removed') this.changes.fire({ kind: 'removed', id: qualify(change.id, name) });
    else if (change.kind === 'policy') this.changes.fire({ kind: 'hosts' }); // each host's policy is on its own line
    else this.changes.fire({ kind: 'attention', item: { ...change.item, pane: { ...change.item.pane, id: qualify(change.item.pane.id, name) } } });
  }
}

/** The ids of one host's cards among those a page shows, as that host's daemon names them. */
function idsOn(ids: readonly string[] | null, host: string): string[] | null {
  if (ids === null) return null;
  return ids.flatMap((id) => {
    const split = splitHostTarget(id);
    return (split.host ?? LOCAL_HOST) === host ? [split.target] : [];
  });
}

/** A host's card as pages know it: its id qualified, its host named, and whether it is the last known. */
function onHost(card: BoardCard, host: string, stale: boolean): BoardCard {
  return { ...card, info: { ...card.info, id: qualify(card.info.id, host) }, host, stale };
}
