import type { WebSocket } from 'ws';
import { DisposableStore } from '../base/disposable.ts';
import { ClientError, CorralError, splitHostTarget } from '../client/index.ts';
import type { MethodDecl, NotificationDecl } from '../protocol/method.ts';
import { checkParams } from '../protocol/params-check.ts';
import { PANE_RESIZE } from '../protocol/methods/pane.ts';
import { INBOX_ACK } from '../protocol/methods/inbox.ts';
import type { LeaseHolder, Leases } from './leases.ts';
import type { WebSession } from './sessions.ts';
import { PageTerminals } from './page-terminals.ts';
import { servePage, type PageBinding } from './page-binding.ts';
import type { PaneRoute, WebBoard, WebBoardChange } from './web-board.ts';
import { CLOSE_GRACE_MS, FELL_BEHIND_CLOSE_CODE, PageOutbox, SOCKET_MAX_BYTES } from './page-outbox.ts';
import {
  ATTENTION,
  BOARD_CARD,
  BOARD_GET,
  BOARD_HOSTS,
  BOARD_POLICY,
  BOARD_REMOVED,
  BOARD_RESET,
  BOARD_TAILS,
  BOARD_WATCH,
  HOST_POLICY,
  INBOX_DISMISS,
  LEASE_CHANGED,
  LEASE_RELEASE,
  LEASE_TAKE,
  PANE_EVENTS,
  PASSED_THROUGH,
  TERMINAL_CLOSE,
  TERMINAL_INPUT,
  TERMINAL_OPEN,
  TERMINAL_RESIZE,
  WEB_ERRORS,
  type WebErrorCode,
} from './wire.ts';

/** Terminals one page may mirror at once. */
export const MAX_TERMINALS = 8;
/**
 * Requests of one page served at once: past it the server stops reading the page's socket (TCP holds
 * the rest at the browser) until one is answered, so a page asking faster than the daemon answers
 * holds at most this many requests here, plus those of one read.
 */
export const MAX_PAGE_IN_FLIGHT = 32;

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

/** A pane a page names, found on its host: its route, its id there, and its id as pages know it (the lease's key). */
interface FoundPane {
  route: PaneRoute;
  id: string;
  key: string;
}

/**
 * One page's WebSocket: JSON-RPC 2.0 requests from the page (src/web/wire.ts), the board's changes
 * and mirrored terminals toward it. A browser that reads slowly never slows the daemon or another
 * page: its terminal output and board changes are dropped while it is behind, and once its queue
 * drains it gets a redraw of each terminal and the whole board again (src/web/page-outbox.ts). Each target goes to the daemon
 * the board routes it to (with --fleet, the host it names), and ids come back as pages know them.
 */
export class PageSocket implements LeaseHolder {
  private readonly subscriptions = new DisposableStore();
  /** The web methods by name (served()): dispatch looks them up, no switch. */
  private readonly bindings = new Map(this.served().map((binding) => [binding.method.name, binding] as const));
  private readonly terminals: PageTerminals;
  private readonly outbox: PageOutbox;
  private inFlight = 0;
  private closed = false;
  readonly label: string;

  constructor(
    private readonly ws: WebSocket,
    /** The signed-in browser this page belongs to; its label is the page's to every viewer. */
    readonly session: WebSession,
    private readonly board: WebBoard,
    private readonly leases: Leases,
    log: (message: string) => void,
  ) {
    const label = session.label;
    this.label = label;
    this.terminals = new PageTerminals((notification, params, droppable) => this.notify(notification, params, droppable), log, label);
    this.outbox = new PageOutbox(ws, () => this.catchUp(), (queued) => {
      log(`${label} fell behind: ${queued} bytes queued toward it, over ${SOCKET_MAX_BYTES}; closed (${FELL_BEHIND_CLOSE_CODE})`);
      this.close();
    });
    board.watch(this, null);
    this.subscriptions.add(board.onChange((change) => this.onBoard(change)));
    this.subscriptions.add(leases.onChange((id) => this.notify(LEASE_CHANGED, leases.info(id, this))));
    ws.on('message', (data, binary) => void this.serve(binary ? null : data.toString()));
    ws.on('close', () => this.close());
    ws.on('error', () => ws.terminate());
  }

  /** Its session ended: closed at once, its close frame given a moment before the socket is cut. */
  signOut(code: number, reason: string): void {
    this.close();
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.board.unwatch(this);
    this.outbox.dispose();
    this.subscriptions.dispose();
    this.leases.releaseAll(this);
    this.terminals.dispose();
  }

  /** `repaintable`: what the catch-up repaints (a terminal's output, the board), dropped while the page is behind. */
  private notify<P>(notification: NotificationDecl<P>, params: P, repaintable = false): void {
    if (this.closed) return;
    this.outbox.send({ jsonrpc: '2.0', method: notification.name, params }, repaintable);
  }

  private onBoard(change: WebBoardChange): void {
    if (change.kind === 'card') this.notify(BOARD_CARD, change.card, true);
    else if (change.kind === 'tails') this.notify(BOARD_TAILS, { tails: change.cards.map((card) => ({ id: card.info.id, tail: card.tail })) }, true);
    else if (change.kind === 'removed') this.notify(BOARD_REMOVED, { id: change.id }, true);
    else if (change.kind === 'reset') this.notify(BOARD_RESET, this.wholeBoard(), true);
    else if (change.kind === 'hosts') this.notify(BOARD_HOSTS, { hosts: this.board.hosts() }, true);
    else if (change.kind === 'policy') this.notify(BOARD_POLICY, { policy: this.board.policy() }, true);
    else {
      const { item } = change;
      const who = item.pane.name ?? item.pane.id;
      const question = typeof item.prompt?.text === 'string' ? item.prompt.text.split('\n')[0]! : null;
      const body = (item.state === 'blocked' ? question : item.state === 'done' ? item.title : null) ?? item.message;
      const what = item.state === 'blocked' ? 'needs you' : item.state === 'done' ? 'is done' : item.state === 'failed' ? 'failed' : `spent ${item.budget?.percent ?? ''}% of a budget`;
      this.notify(ATTENTION, { id: item.pane.id, item: item.id, host: splitHostTarget(item.pane.id).host, name: item.pane.name, state: item.state, title: `${who} ${what}`, body });
    }
  }

  private wholeBoard() {
    return { cards: this.board.list(), leases: this.leases.all(this), hosts: this.board.hosts(), policy: this.board.policy() };
  }

  /** A socket that fell behind and has drained: the whole board again and a redraw of each terminal. */
  private catchUp(): void {
    this.notify(BOARD_RESET, this.wholeBoard(), true);
    this.terminals.redrawAll();
  }

  private async serve(text: string | null): Promise<void> {
    this.inFlight++;
    if (this.inFlight >= MAX_PAGE_IN_FLIGHT && !this.ws.isPaused) this.ws.pause();
    try {
      await this.onMessage(text);
    } finally {
      this.inFlight--;
      if (this.inFlight < MAX_PAGE_IN_FLIGHT && this.ws.isPaused && !this.closed) this.ws.resume();
    }
  }

  private async onMessage(text: string | null): Promise<void> {
    // A closed page (signed out, fell behind) may still have frames in flight: none of them acts.
    if (this.closed) return;
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
    if (id === null || this.closed) return;
    this.outbox.send({ jsonrpc: '2.0', id, ...body }, false);
  }

  private async dispatch(method: string, raw: unknown): Promise<unknown> {
    const through = PASSED_THROUGH.find((decl) => decl.name === method);
    if (through) return this.passThrough(through, raw);
    const binding = this.bindings.get(method);
    if (binding === undefined) throw new CorralError('method_not_found', `the web server has no method "${method}"`);
    return binding.handle(raw);
  }

  /** The web methods this socket serves, one binding each (WEB_METHODS). */
  private served(): PageBinding[] {
    return [
      servePage(BOARD_GET, () => this.wholeBoard()),
      servePage(PANE_EVENTS, async ({ target, limit }) => {
        const { route, id } = await this.pane(target);
        return { events: (await route.client.call('events.read', { filter: `pane:${id}`, ...(limit !== undefined ? { limit } : {}) })).events };
      }),
      servePage(BOARD_WATCH, ({ ids }) => {
        this.board.watch(this, ids);
        return { watching: ids.length };
      }),
      servePage(TERMINAL_OPEN, ({ target }) => this.open(target)),
      servePage(TERMINAL_CLOSE, ({ target }) => this.closeTerminal(target)),
      servePage(TERMINAL_INPUT, async ({ target, data }) => {
        const { route, id, key } = await this.pane(target);
        this.needLease(key);
        await route.client.call('pane.send', { target: id, text: data });
        return { sent: data.length };
      }),
      servePage(TERMINAL_RESIZE, async ({ target, cols, rows }) => {
        const { route, id, key } = await this.pane(target);
        this.needLease(key);
        await route.client.connection.call(PANE_RESIZE, { target: id, cols, rows });
        return { cols, rows };
      }),
      servePage(LEASE_TAKE, async ({ target }) => {
        const { key } = await this.pane(target);
        if (!this.leases.take(key, this)) throw new WebError('lease_held', `${this.leases.info(key, this).holder} holds the control lease of ${key}`);
        return this.leases.info(key, this);
      }),
      // Dismissing is no typing: any viewer may, whoever holds the lease. The item's id is its daemon's own.
      servePage(INBOX_DISMISS, async ({ target, item }) => {
        const { route } = await this.pane(target);
        const { acknowledged } = await route.client.connection.call(INBOX_ACK, { ids: [item] });
        return { dismissed: acknowledged.includes(item) };
      }),
      // A host's kill switch with --fleet: any signed-in viewer may press it, as the one daemon's (LEASE_RULES).
      servePage(HOST_POLICY, ({ host, paused }) => this.board.host(host).call(paused ? 'policy.pause' : 'policy.resume', {})),
      servePage(LEASE_RELEASE, async ({ target }) => {
        const { key } = await this.pane(target);
        this.leases.release(key, this);
        return this.leases.info(key, this);
      }),
    ];
  }

  /**
   * A daemon method a page may call as it is, on the daemon its target is on (a call without one: this
   * machine's). What changes a pane keeps to its lease (LEASE_RULES).
   */
  private async passThrough(decl: MethodDecl<unknown, unknown>, raw: unknown): Promise<unknown> {
    const params = checkParams(decl, raw, 'params') as { target?: string };
    const route = this.board.route(params.target ?? '');
    const rule = LEASE_RULES[decl.name as PassedThroughName];
    if (rule !== 'none' && params.target !== undefined) {
      const { key } = await this.pane(params.target);
      if (rule === 'holder') this.needLease(key, 'emptying its queue');
      const lease = this.leases.info(key, this);
      if (lease.holder !== null && !lease.mine) throw new WebError('lease_held', `${lease.holder} is typing into ${key}; wait until the lease is given back`);
    }
    return route.client.connection.request(decl.name, params.target !== undefined ? { ...params, target: route.target } : params);
  }

  /** The pane a target names: a card's from the board, with no call (each keystroke batch and answer asks); another read from its daemon. */
  private async pane(target: string): Promise<FoundPane> {
    const route = this.board.route(target);
    const id = route.known ?? (await route.client.call('pane.get', { target: route.target })).id;
    return { route, id, key: route.qualify(id) };
  }

  private needLease(id: string, doing = 'typing into it'): void {
    if (!this.leases.holds(id, this)) throw new WebError('lease_required', `take the control lease of ${id} before ${doing}`);
  }

  private async open(target: string) {
    if (this.terminals.size >= MAX_TERMINALS) throw new WebError('too_many_terminals', `a page mirrors at most ${MAX_TERMINALS} terminals`);
    const { key, cols, rows } = await this.terminals.open(this.board.route(target), () => this.pane(target));
    return { id: key, cols, rows, lease: this.leases.info(key, this) };
  }

  private async closeTerminal(target: string) {
    const key = (await this.pane(target).catch(() => null))?.key ?? target;
    if (!this.terminals.has(key)) return { closed: false };
    this.leases.release(key, this);
    return { closed: await this.terminals.close(key) };
  }
}

type PassedThroughName = (typeof PASSED_THROUGH)[number]['name'];

/**
 * What each passed-through method needs of the pane's lease. The lease keeps a person's own viewers
 * from acting over each other (every session signed in with the token; src/web/sessions.ts):
 * - `holder`: only the lease's holder. Emptying the steering queue throws away what any viewer queued.
 * - `free`: refused while another viewer holds it, else allowed without taking it. An answer carries
 *   the id of the prompt its page showed (`prompt_changed` otherwise), and a prompt or a queued one
 *   adds only the person's own text: one tap on a phone, with no lease to take first.
 * - `none`: reads, and agent.focus, which only marks the agent seen (acknowledges its inbox item).
 */
const LEASE_RULES: Record<PassedThroughName, 'holder' | 'free' | 'none'> = {
  'agent.get': 'none',
  'agent.explain': 'none',
  'agent.read': 'none',
  'agent.focus': 'none',
  'agent.queue': 'none',
  'agent.answer': 'free',
  'agent.prompt': 'free',
  'agent.clearQueue': 'holder',
  'events.read': 'none',
  'push.key': 'none',
  'push.subscribe': 'none', // this browser's own subscription, on the daemon of this machine
  'push.list': 'none',
  'push.set': 'none', // what this browser receives (the page's notification settings)
  'policy.check': 'none',
  // The kill switch, of this machine's daemon: any signed-in viewer may press it, as on the command line.
  'policy.pause': 'none',
  'policy.resume': 'none',
};

function errorObject(error: unknown): { code: number; message: string; data: Record<string, unknown> } {
  if (error instanceof WebError) return { code: WEB_ERRORS[error.code].rpc, message: error.message, data: { code: error.code } };
  if (error instanceof CorralError) return { code: error.rpcCode, message: error.message, data: { code: error.code, ...error.details } };
  if (error instanceof ClientError) return { code: -32000, message: error.message, data: { code: error.code } };
  return { code: -32603, message: 'an unexpected fault in the web server; see its log', data: { code: 'internal_error' } };
}
