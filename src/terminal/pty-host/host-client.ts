import { connect, type Socket } from 'node:net';
import type { Disposable } from '../../base/disposable.ts';
import type { PaneSpawnOptions } from '../types.ts';
import { Emitter } from '../../base/emitter.ts';
import { AllocatorTrim } from '../allocator-trim.ts';
import {
  FrameKind,
  FrameReader,
  HOST_PROTOCOL_VERSION,
  encodeControl,
  encodeData,
  type DaemonMessage,
  type HostExit,
  type HostMessage,
  type HostPaneInfo,
} from './wire.ts';

/** An exit held for a pane not adopted yet, queued in order with its output. */
const EXIT_FRAME = -1;

export type HelloReply = Extract<HostMessage, { t: 'hello' }>;

/** What the client routes to one pane: its replayed ring, live output and exit. */
export interface HostPaneSink {
  replay(data: Buffer): void;
  output(data: Buffer): void;
  exit(exit: HostExit): void;
  /** The host's count of input received for the pane and not read by its program yet. */
  input(received: number, pending: number): void;
  /** The connection to the host is gone: the pane's PTY is gone with it, or belongs to no one now. */
  lost(): void;
}

export class HostError extends Error {
  constructor(
    readonly code: 'host_unreachable' | 'host_refused' | 'host_lost' | 'spawn_failed',
    message: string,
  ) {
    super(message);
  }
}

/** How long the host may take to answer hello, spawn or shutdown. */
export const HOST_REPLY_TIMEOUT_MS = 10_000;

/**
 * The daemon's end of the pty host's socket: one connection, requests with replies, and frames
 * routed to each pane's sink by handle.
 */
export class HostClient implements Disposable {
  private readonly reader = new FrameReader();
  private readonly sinks = new Map<number, HostPaneSink>();
  /** Frames for a handle that has no sink yet (a replay that arrives before its pane is adopted). */
  private readonly early = new Map<number, Array<{ kind: number; data: Buffer }>>();
  private readonly waiting = new Map<number, (message: HostMessage) => void>();
  private readonly closed = new Emitter<void>();
  /** Every pane's output enters the daemon here: after it, the allocator gives back what it freed. */
  private readonly trim = new AllocatorTrim();
  private nextId = 1;
  private hello: ((message: HostMessage) => void) | null = null;
  private gone = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.closedByPeer());
  }

  /** Connects and says hello; rejects with host_unreachable when nothing listens. */
  static async connect(path: string): Promise<{ client: HostClient; hello: HelloReply }> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const socket = connect(path);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', (error) => reject(new HostError('host_unreachable', `no pty host answers on ${path}: ${error.message}`)));
    });
    const client = new HostClient(socket);
    const reply = await client.request((resolve) => {
      client.hello = resolve;
      client.send({ t: 'hello', version: HOST_PROTOCOL_VERSION });
    });
    client.hello = null;
    if (reply.t === 'refused') {
      client.dispose();
      throw new HostError('host_refused', `the pty host on ${path} refused this daemon (${reply.reason ?? 'refused'}): ${reply.message}`);
    }
    return { client, hello: reply as HelloReply };
  }

  get connected(): boolean {
    return !this.gone;
  }

  onClose(listener: () => void): Disposable {
    return this.closed.event(listener);
  }

  /** Routes a pane's frames to `sink`, first any that arrived before it. */
  adopt(handle: number, sink: HostPaneSink): Disposable {
    this.sinks.set(handle, sink);
    for (const frame of this.early.get(handle) ?? []) this.route(frame.kind, handle, frame.data);
    this.early.delete(handle);
    if (this.gone) sink.lost();
    return { dispose: () => this.sinks.get(handle) === sink && this.sinks.delete(handle) };
  }

  async spawn(meta: unknown, options: PaneSpawnOptions): Promise<HostPaneInfo> {
    const id = this.nextId++;
    const reply = await this.request((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ t: 'spawn', id, meta, ...options });
    });
    if (reply.t === 'failed') throw new HostError('spawn_failed', reply.message);
    if (reply.t !== 'spawned') throw new HostError('host_lost', 'unexpected reply from the pty host');
    return { handle: reply.handle, pid: reply.pid, meta, cols: options.cols, rows: options.rows, startedAt: Date.now(), dropped: 0, exit: null, inputReceived: 0 };
  }

  /** Ends every pane by the one policy and lets the host exit; resolves once all panes exited. */
  async shutdown(): Promise<void> {
    if (this.gone) return;
    const id = this.nextId++;
    await this.request((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ t: 'shutdown', id });
    }, null).catch(() => undefined);
  }

  send(message: DaemonMessage): void {
    if (!this.gone) this.socket.write(encodeControl(message));
  }

  input(handle: number, data: string): void {
    if (!this.gone) this.socket.write(encodeData(FrameKind.input, handle, data));
  }

  /** Leaves the host and its panes running. */
  dispose(): void {
    this.trim.dispose();
    this.socket.end();
    this.socket.destroySoon();
  }

  private request(start: (resolve: (message: HostMessage) => void) => void, timeoutMs: number | null = HOST_REPLY_TIMEOUT_MS): Promise<HostMessage> {
    return new Promise((resolve, reject) => {
      if (this.gone) return reject(new HostError('host_lost', 'the pty host connection is closed'));
      const timer = timeoutMs === null ? null : setTimeout(() => reject(new HostError('host_lost', `the pty host did not answer in ${timeoutMs} ms`)), timeoutMs);
      const lost = this.closed.event(() => reject(new HostError('host_lost', 'the pty host connection closed')));
      start((message) => {
        if (timer !== null) clearTimeout(timer);
        lost.dispose();
        resolve(message);
      });
    });
  }

  private onData(chunk: Buffer): void {
    this.trim.noteActivity();
    let frames;
    try {
      frames = this.reader.push(chunk);
    } catch {
      this.socket.destroy();
      return;
    }
    for (const frame of frames) {
      if (frame.kind === FrameKind.control) this.onMessage(frame.message as HostMessage);
      else this.route(frame.kind, frame.handle, frame.data);
    }
  }

  private route(kind: number, handle: number, data: Buffer): void {
    const sink = this.sinks.get(handle);
    if (!sink) {
      const queue = this.early.get(handle) ?? [];
      queue.push({ kind, data });
      this.early.set(handle, queue);
      return;
    }
    if (kind === EXIT_FRAME) sink.exit(JSON.parse(data.toString('utf8')) as HostExit);
    else if (kind === FrameKind.replay) sink.replay(data);
    else if (kind === FrameKind.output) sink.output(data);
  }

  private onMessage(message: HostMessage): void {
    switch (message.t) {
      case 'hello':
      case 'refused':
        this.hello?.(message);
        return;
      case 'spawned':
      case 'failed':
      case 'shutdown': {
        const resolve = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        resolve?.(message);
        return;
      }
      case 'input':
        this.sinks.get(message.handle)?.input(message.received, message.pending);
        return;
      case 'exit': {
        const sink = this.sinks.get(message.handle);
        if (sink) sink.exit(message.exit);
        else this.early.set(message.handle, [...(this.early.get(message.handle) ?? []), { kind: EXIT_FRAME, data: Buffer.from(JSON.stringify(message.exit)) }]);
        return;
      }
    }
  }

  private closedByPeer(): void {
    if (this.gone) return;
    this.gone = true;
    this.trim.dispose();
    for (const sink of this.sinks.values()) sink.lost();
    this.closed.fire();
    this.closed.dispose();
  }
}
