import type { Disposable } from '../base/disposable.ts';
import type { DaemonConnection } from '../client/index.ts';
import type { NotificationDecl } from '../protocol/method.ts';
import { PANE_ATTACH, PANE_DETACH, PANE_DETACHED, PANE_OUTPUT } from '../protocol/methods/attach.ts';
import type { PaneRoute } from './web-board.ts';
import { TERMINAL_ENDED, TERMINAL_OUTPUT } from './wire.ts';

/** A mirrored terminal: the host whose connection attached it ('' for one daemon), and its id there. */
interface Mirrored {
  host: string;
  id: string;
}

/** How a page is told of its terminals: `droppable` output may be dropped while the page is behind. */
export type Tell = <P>(notification: NotificationDecl<P>, params: P, droppable?: boolean) => void;

/**
 * The terminals one page mirrors, each on the page's own connection to the pane's daemon (one per
 * host with --fleet): pane.output goes to the connection that attached, and is told to the page by
 * the pane's id as pages know it (`w1:p1@build` with --fleet). A connection that closes ends its
 * host's terminals (`daemon_gone`).
 */
export class PageTerminals implements Disposable {
  private readonly connections = new Map<string, DaemonConnection>();
  private readonly dialing = new Map<string, Promise<DaemonConnection>>();
  /** By the id pages know. */
  private readonly mirrored = new Map<string, Mirrored>();
  private disposed = false;

  constructor(
    private readonly tell: Tell,
    private readonly log: (message: string) => void,
    private readonly label: string,
  ) {}

  get size(): number {
    return this.mirrored.size;
  }

  has(key: string): boolean {
    return this.mirrored.has(key);
  }

  /** Mirrors the pane `find` names on `route`'s daemon; viewing never resizes it. */
  async open(route: PaneRoute, find: () => Promise<{ id: string; key: string }>): Promise<{ key: string; cols: number; rows: number }> {
    const host = route.host ?? '';
    const connection = await this.connection(route);
    // Mirrored before the attach: its redraw may arrive before its reply.
    const { id, key } = await find();
    this.mirrored.set(key, { host, id });
    try {
      // No size: terminal.resize resizes the pane, on purpose.
      const pane = await connection.call(PANE_ATTACH, { target: id });
      return { key, cols: pane.cols, rows: pane.rows };
    } catch (error) {
      this.mirrored.delete(key);
      throw error;
    }
  }

  /** Stops mirroring it; false when it was not. */
  async close(key: string): Promise<boolean> {
    const mirrored = this.mirrored.get(key);
    if (mirrored === undefined) return false;
    this.mirrored.delete(key);
    await this.connections.get(mirrored.host)?.call(PANE_DETACH, { target: mirrored.id }).catch(() => undefined);
    return true;
  }

  /** A full redraw of each terminal (after the page fell behind): attached again. */
  redrawAll(): void {
    for (const { host, id } of this.mirrored.values()) {
      const connection = this.connections.get(host);
      if (connection === undefined) continue;
      void (async () => {
        await connection.call(PANE_DETACH, { target: id });
        await connection.call(PANE_ATTACH, { target: id });
      })().catch(() => undefined); // the pane ended meanwhile: pane.detached tells the page
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const connection of this.connections.values()) connection.dispose();
    for (const dial of this.dialing.values()) void dial.then((connection) => connection.dispose(), () => undefined);
  }

  private connection(route: PaneRoute): Promise<DaemonConnection> {
    const host = route.host ?? '';
    const open = this.connections.get(host);
    if (open !== undefined && !open.closed) return Promise.resolve(open);
    let dial = this.dialing.get(host);
    if (dial === undefined) {
      dial = route.client.endpoint.dial().finally(() => this.dialing.delete(host));
      this.dialing.set(host, dial);
      // Registered before any caller's await: the connection is known by the time open() goes on.
      void dial.then((connection) => this.mirrorOn(connection, host, route), () => undefined);
    }
    return dial;
  }

  private mirrorOn(connection: DaemonConnection, host: string, route: PaneRoute): void {
    if (this.disposed) return void connection.dispose();
    this.connections.set(host, connection);
    const ofHost = () => [...this.mirrored].filter(([, mirrored]) => mirrored.host === host).map(([key]) => key);
    for (const key of ofHost()) this.mirrored.delete(key);
    connection.onNotification(PANE_OUTPUT, ({ id, data, redraw }) => {
      const key = route.qualify(id);
      if (this.mirrored.has(key)) this.tell(TERMINAL_OUTPUT, { id: key, data, redraw }, true); // a redraw too: the catch-up repaints it
    });
    connection.onNotification(PANE_DETACHED, ({ id, reason }) => {
      const key = route.qualify(id);
      this.mirrored.delete(key);
      this.tell(TERMINAL_ENDED, { id: key, reason });
    });
    connection.onClose(() => {
      for (const key of ofHost()) {
        this.tell(TERMINAL_ENDED, { id: key, reason: 'daemon_gone' });
        this.mirrored.delete(key);
      }
      if (this.connections.get(host) === connection) this.connections.delete(host);
    });
    this.log(`${this.label} mirrors terminals${route.host !== null ? ` of host ${route.host}` : ''}`);
  }
}
