import type { NotificationDecl, ParamsOf, ResultOf } from '../../protocol/method.ts';
import type { PASSED_THROUGH, WEB_METHODS, WEB_NOTIFICATIONS } from '../wire.ts';
import { forgetKey, heldKey, sessionStands } from './sign-in.ts';

/** The methods a page may call, by name, as the web wire declares them (src/web/wire.ts): types only. */
type PageMethods = { [M in (typeof WEB_METHODS)[number] | (typeof PASSED_THROUGH)[number] as M['name']]: M };
type PageMethod = keyof PageMethods;
/** Params of a method; optional as a whole when every field is optional. */
type CallArgs<N extends PageMethod> = {} extends ParamsOf<PageMethods[N]> ? [params?: ParamsOf<PageMethods[N]>] : [params: ParamsOf<PageMethods[N]>];
/** The server's notifications, by name, with their params as declared. */
type PageNotifications = { [D in (typeof WEB_NOTIFICATIONS)[number] as D['name']]: D extends NotificationDecl<infer P> ? P : never };

/** The close code of a socket whose session ended (src/web/web-server.ts SIGNED_OUT_CLOSE_CODE). */
const SIGNED_OUT_CLOSE_CODE = 4401;

/**
 * The page's end of the WebSocket to `corral web` (src/web/wire.ts): JSON-RPC 2.0 calls and the
 * server's notifications, reconnecting with back-off. The socket is signed in by the page's key,
 * offered as a subprotocol (`corral.key.KEY` beside `corral`), the one header a browser lets a page
 * set on an upgrade. A socket closed as signed out, or refused while the server says the key is no
 * longer good, stops reconnecting (onSignedOut). Nothing is queued while the socket is down: a
 * call made then fails at once, so a keystroke typed during a disconnect is dropped, never replayed.
 */
export interface RpcError {
  code: string;
  message: string;
  data: Record<string, unknown>;
}

type Listener = (params: never) => void;

export class PageRpc {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: RpcError): void }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private delay = 250;
  onStatus: (connected: boolean) => void = () => {};
  onSignedOut: () => void = () => {};

  start(): void {
    const key = heldKey();
    if (key === null) return this.onSignedOut();
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/socket`, ['corral', `corral.key.${key}`]);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.delay = 250;
      this.onStatus(true);
    };
    socket.onmessage = (message) => this.receive(String(message.data));
    socket.onclose = (event) => {
      this.socket = null;
      for (const { reject } of this.pending.values()) reject({ code: 'connection_closed', message: 'the connection to corral web was lost', data: {} });
      this.pending.clear();
      this.onStatus(false);
      if (event.code === SIGNED_OUT_CLOSE_CODE || !opened) void this.retryUnlessSignedOut(key);
      else this.retry();
    };
  }

  private retry(): void {
    setTimeout(() => this.start(), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  /** A browser does not say why an upgrade was refused: the server is asked whether the key still stands. */
  private async retryUnlessSignedOut(key: string): Promise<void> {
    if ((await sessionStands(key)) === false) {
      forgetKey(key);
      return this.onSignedOut();
    }
    this.retry();
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Calls a method the web wire declares, its params and result typed by the declaration. */
  call<N extends PageMethod>(method: N, ...args: CallArgs<N>): Promise<ResultOf<PageMethods[N]>> {
    const params = args[0] ?? {};
    const socket = this.socket;
    if (socket === null || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject({ code: 'connection_closed', message: 'not connected to corral web', data: {} } satisfies RpcError);
    }
    const id = this.nextId++;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
  }

  /** Listens to a notification the web wire declares, its params typed by the declaration. */
  on<N extends keyof PageNotifications>(method: N, listener: (params: PageNotifications[N]) => void): () => void {
    const set = this.listeners.get(method) ?? new Set();
    this.listeners.set(method, set);
    set.add(listener as Listener);
    return () => set.delete(listener);
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string; data?: { code?: string } } };
    if (message.method !== undefined) {
      for (const listener of this.listeners.get(message.method) ?? []) (listener as (params: unknown) => void)(message.params);
      return;
    }
    const pending = message.id === undefined ? undefined : this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id!);
    if (message.error) pending.reject({ code: message.error.data?.code ?? 'internal_error', message: message.error.message, data: (message.error.data ?? {}) as Record<string, unknown> });
    else pending.resolve(message.result);
  }
}
