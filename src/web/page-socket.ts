import type { WebSocket } from 'ws';
import { DisposableStore } from '../base/disposable.ts';
import { ClientError, CorralError, DaemonConnection, type CorralClient } from '../client/index.ts';
import type { MethodDecl, NotificationDecl } from '../protocol/method.ts';
import { checkParams } from '../protocol/params-check.ts';
import { PANE_ATTACH, PANE_DETACH, PANE_DETACHED, PANE_OUTPUT } from '../protocol/methods/attach.ts';
import { PANE_RESIZE } from '../protocol/methods/pane.ts';
import type { Board, BoardChange } from './board.ts';
import type { LeaseHolder, Leases } from './leases.ts';
import {
  ATTENTION,
  BOARD_CARD,
  BOARD_GET,
  BOARD_REMOVED,
  BOARD_RESET,
  BOARD_TAILS,
  LEASE_CHANGED,
  LEASE_RELEASE,
  LEASE_TAKE,
  PASSED_THROUGH,
  TERMINAL_CLOSE,
  TERMINAL_ENDED,
  TERMINAL_INPUT,
  TERMINAL_OPEN,
  TERMINAL_OUTPUT,
  TERMINAL_RESIZE,
  WEB_ERRORS,
  type WebErrorCode,
} from './wire.ts';

/** Output queued toward one browser above which its terminals stop streaming and redraw later. */
export const SOCKET_HIGH_BYTES = 1024 * 1024;
/** Queued output under which a socket that fell behind catches up with a redraw. */
export const SOCKET_LOW_BYTES = 64 * 1024;
/** Terminals one page may mirror at once. */
export const MAX_TERMINALS = 8;
const CATCH_UP_CHECK_MS = 100;

class WebError extends Error {
  constructor(
    readonly code: WebErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface Request {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/**
 * One page's WebSocket: JSON-RPC 2.0 requests from the page (src/web/wire.ts), the board's changes
 * and mirrored terminals toward it. A browser that reads slowly never slows the daemon or another
 * page: past SOCKET_HIGH_BYTES its terminal output is dropped and its board marked stale, and once
 * its queue drains it gets a full redraw and the whole board again.
 */
export class PageSocket implements LeaseHolder {
  private readonly subscriptions = new DisposableStore();
  private terminals: DaemonConnection | null = null;
  private readonly mirrored = new Set<string>();
  private behind = false;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    readonly label: string,
    private readonly client: CorralClient,
    private readonly board: Board,
    private readonly leases: Leases,
    private readonly log: (message: string) => void,
  ) {
    board.watchers++;
    this.subscriptions.add(board.onChange((change) => this.onBoard(change)));
    this.subscriptions.add(leases.onChange((id) => this.notify(LEASE_CHANGED, leases.info(id, this))));
    ws.on('message', (data, binary) => void this.onMessage(binary ? null : data.toString()));
    ws.on('close', () => this.close());
    ws.on('error', () => ws.terminate());
    this.timer = setInterval(() => this.catchUp(), CATCH_UP_CHECK_MS);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.board.watchers--;
    clearInterval(this.timer);
    this.subscriptions.dispose();
    this.leases.releaseAll(this);
    this.terminals?.dispose();
  }

  private notify<P>(notification: NotificationDecl<P>, params: P, droppable = false): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (droppable && this.ws.bufferedAmount > SOCKET_HIGH_BYTES) {
      this.behind = true;
      return;
    }
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', method: notification.name, params }));
  }

  private onBoard(change: BoardChange): void {
    if (change.kind === 'card') this.notify(BOARD_CARD, change.card, true);
    else if (change.kind === 'tails') this.notify(BOARD_TAILS, { tails: change.cards.map((card) => ({ id: card.info.id, tail: card.tail })) }, true);
    else if (change.kind === 'removed') this.notify(BOARD_REMOVED, { id: change.id });
    else if (change.kind === 'reset') this.notify(BOARD_RESET, this.wholeBoard());
    else {
      const { item } = change;
      const who = item.pane.name ?? item.pane.id;
      const question = typeof item.prompt?.text === 'string' ? item.prompt.text.split('\n')[0]! : null;
      const body = (item.state === 'blocked' ? question : item.title) ?? item.message;
      this.notify(ATTENTION, { id: item.pane.id, item: item.id, name: item.pane.name, state: item.state, title: `${who} ${item.state === 'blocked' ? 'needs you' : 'is done'}`, body });
    }
  }

  private wholeBoard() {
    return { cards: this.board.list(), leases: this.leases.all(this) };
  }

  /** A socket that fell behind and has drained: the whole board again and a redraw of each terminal. */
  private catchUp(): void {
    if (!this.behind || this.ws.bufferedAmount > SOCKET_LOW_BYTES) return;
    this.behind = false;
    this.notify(BOARD_RESET, this.wholeBoard());
    for (const id of this.mirrored) void this.reattach(id);
  }

  private async reattach(id: string): Promise<void> {
    const terminals = this.terminals;
    if (terminals === null) return;
    try {
      await terminals.call(PANE_DETACH, { target: id });
      await terminals.call(PANE_ATTACH, { target: id });
    } catch {
      // the pane ended meanwhile: pane.detached tells the page
    }
  }

  private async onMessage(text: string | null): Promise<void> {
    let request: Request;
    try {
      if (text === null) throw new SyntaxError('binary frame');
      request = JSON.parse(text) as Request;
    } catch {
      return this.reply(null, { error: { code: -32700, message: 'the message is not JSON text', data: { code: 'parse_error' } } });
    }
    const id = typeof request.id === 'number' || typeof request.id === 'string' ? request.id : null;
    if (request === null || typeof request !== 'object' || typeof request.method !== 'string') {
      return this.reply(id, { error: { code: -32600, message: 'not a JSON-RPC 2.0 request', data: { code: 'invalid_request' } } });
    }
    try {
      const result = await this.dispatch(request.method, request.params ?? {});
      this.reply(id, { result });
    } catch (error) {
      this.reply(id, { error: errorObject(error) });
    }
  }

  private reply(id: unknown, body: { result: unknown } | { error: unknown }): void {
    if (id === null || this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, ...body }));
  }

  private async dispatch(method: string, raw: unknown): Promise<unknown> {
    const through = PASSED_THROUGH.find((decl) => decl.name === method);
    if (through) return this.passThrough(through, raw);
    switch (method) {
      case BOARD_GET.name:
        checkParams(BOARD_GET, raw, 'params');
        return this.wholeBoard();
      case TERMINAL_OPEN.name:
        return this.open(checkParams(TERMINAL_OPEN, raw, 'params').target);
      case TERMINAL_CLOSE.name:
        return this.closeTerminal(checkParams(TERMINAL_CLOSE, raw, 'params').target);
      case TERMINAL_INPUT.name: {
        const { target, data } = checkParams(TERMINAL_INPUT, raw, 'params');
        const id = await this.paneId(target);
        this.needLease(id);
        await this.client.call('pane.send', { target: id, text: data });
        return { sent: data.length };
      }
      case TERMINAL_RESIZE.name: {
        const { target, cols, rows } = checkParams(TERMINAL_RESIZE, raw, 'params');
        const id = await this.paneId(target);
        this.needLease(id);
        await this.client.connection.call(PANE_RESIZE, { target: id, cols, rows });
        return { cols, rows };
      }
      case LEASE_TAKE.name: {
        const id = await this.paneId(checkParams(LEASE_TAKE, raw, 'params').target);
        if (!this.leases.take(id, this)) throw new WebError('lease_held', `${this.leases.info(id, this).holder} holds the control lease of ${id}`);
        return this.leases.info(id, this);
      }
      case LEASE_RELEASE.name: {
        const id = await this.paneId(checkParams(LEASE_RELEASE, raw, 'params').target);
        this.leases.release(id, this);
        return this.leases.info(id, this);
      }
      default:
        throw new CorralError('method_not_found', `the web server has no method "${method}"`);
    }
  }

  /** A daemon method a page may call as it is; answering or prompting waits while another viewer types. */
  private async passThrough(decl: MethodDecl<unknown, unknown>, raw: unknown): Promise<unknown> {
    const params = checkParams(decl, raw, 'params') as { target?: string };
    if ((decl.name === 'agent.answer' || decl.name === 'agent.prompt') && params.target !== undefined) {
      const id = await this.paneId(params.target);
      const lease = this.leases.info(id, this);
      if (lease.holder !== null && !lease.mine) throw new WebError('lease_held', `${lease.holder} is typing into ${id}; wait until the lease is given back`);
    }
    return this.client.connection.request(decl.name, params);
  }

  private async paneId(target: string): Promise<string> {
    return (await this.client.call('pane.get', { target })).id;
  }

  private needLease(id: string): void {
    if (!this.leases.holds(id, this)) throw new WebError('lease_required', `take the control lease of ${id} before typing into it`);
  }

  private async open(target: string) {
    if (this.mirrored.size >= MAX_TERMINALS) throw new WebError('too_many_terminals', `a page mirrors at most ${MAX_TERMINALS} terminals`);
    const terminals = await this.terminalConnection();
    // Mirrored before the attach: its redraw may arrive before its reply.
    const id = await this.paneId(target);
    this.mirrored.add(id);
    try {
      // No size: viewing never resizes the pane (terminal.resize does, on purpose).
      const pane = await terminals.call(PANE_ATTACH, { target: id });
      return { id: pane.id, cols: pane.cols, rows: pane.rows, lease: this.leases.info(pane.id, this) };
    } catch (error) {
      this.mirrored.delete(id);
      throw error;
    }
  }

  private async closeTerminal(target: string) {
    const terminals = this.terminals;
    const id = await this.paneId(target).catch(() => target);
    if (!this.mirrored.delete(id) || terminals === null) return { closed: false };
    this.leases.release(id, this);
    await terminals.call(PANE_DETACH, { target: id }).catch(() => undefined);
    return { closed: true };
  }

  /** The page's own daemon connection for attachments: pane.output goes to the connection that attached. */
  private async terminalConnection(): Promise<DaemonConnection> {
    if (this.terminals !== null && !this.terminals.closed) return this.terminals;
    const terminals = await DaemonConnection.connect(this.client.socket);
    this.terminals = terminals;
    this.mirrored.clear();
    terminals.onNotification(PANE_OUTPUT, ({ id, data, redraw }) => {
      if (this.mirrored.has(id)) this.notify(TERMINAL_OUTPUT, { id, data, redraw }, !redraw);
    });
    terminals.onNotification(PANE_DETACHED, ({ id, reason }) => {
      this.mirrored.delete(id);
      this.notify(TERMINAL_ENDED, { id, reason });
    });
    terminals.onClose(() => {
      for (const id of this.mirrored) this.notify(TERMINAL_ENDED, { id, reason: 'daemon_gone' });
      this.mirrored.clear();
      if (this.terminals === terminals) this.terminals = null;
    });
    this.log(`${this.label} mirrors terminals`);
    return terminals;
  }
}

function errorObject(error: unknown): { code: number; message: string; data: Record<string, unknown> } {
  if (error instanceof WebError) return { code: WEB_ERRORS[error.code].rpc, message: error.message, data: { code: error.code } };
  if (error instanceof CorralError) return { code: error.rpcCode, message: error.message, data: { code: error.code, ...error.details } };
  if (error instanceof ClientError) return { code: -32000, message: error.message, data: { code: error.code } };
  return { code: -32603, message: 'an unexpected fault in the web server; see its log', data: { code: 'internal_error' } };
}
