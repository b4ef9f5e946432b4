import { createServer, type Server, type Socket } from 'node:net';
import { AllocatorTrim } from '../allocator-trim.ts';
import { HostPane } from './host-pane.ts';
import { RING_BYTES } from './ring.ts';
import {
  FrameKind,
  FrameReader,
  HOST_PROTOCOL_VERSION,
  encodeControl,
  dataHeader,
  encodeData,
  type DaemonMessage,
  type HostExit,
  type HostMessage,
} from './wire.ts';

/** Output queued on the daemon's socket above which the panes writing it are paused. */
export const HOST_SOCKET_HIGH_BYTES = 4 * 1024 * 1024;

export interface HostServerOptions {
  socketPath: string;
  ringBytes?: number;
  /** Called once the host has nothing left to do: no daemon attached and no pane running. */
  idle(): void;
  log(message: string): void;
}

type Lifecycle = 'serving' | 'shutting_down' | 'closed';

/**
 * The pty host's server: at most one attached daemon, the panes by handle. A new daemon that says
 * hello takes over from the previous one (which is gone, or about to be).
 */
export class HostServer {
  private readonly server: Server;
  private readonly panes = new Map<number, HostPane>();
  private nextHandle = 1;
  private daemon: Socket | null = null;
  private lifecycle: Lifecycle = 'serving';
  private readonly ringBytes: number;
  private readonly trim = new AllocatorTrim();
  readonly startedAt = Date.now();

  constructor(private readonly options: HostServerOptions) {
    this.ringBytes = options.ringBytes ?? RING_BYTES;
    this.server = createServer((socket) => this.accept(socket));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  get running(): number {
    let count = 0;
    for (const pane of this.panes.values()) if (pane.exit === null) count++;
    return count;
  }

  /** Ends every pane by the one policy; resolves once all have exited. */
  shutdown(): Promise<void> {
    this.lifecycle = 'shutting_down';
    const pending = [...this.panes.values()].filter((pane) => pane.exit === null);
    for (const pane of pending) pane.terminate();
    return new Promise((resolve) => {
      const check = () => (this.running === 0 ? resolve() : setTimeout(check, 20));
      check();
    });
  }

  close(): void {
    if (this.lifecycle === 'closed') return;
    this.lifecycle = 'closed';
    this.trim.dispose();
    for (const pane of this.panes.values()) pane.dispose();
    this.panes.clear();
    this.daemon?.destroy();
    this.server.close();
  }

  private accept(socket: Socket): void {
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = reader.push(chunk);
      } catch (error) {
        this.options.log(`bad frame from a client: ${(error as Error).message}`);
        socket.destroy();
        return;
      }
      for (const frame of frames) {
        if (frame.kind === FrameKind.control) this.onMessage(socket, frame.message as DaemonMessage);
        else if (frame.kind === FrameKind.input && socket === this.daemon) this.input(frame.handle, frame.data);
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      if (socket !== this.daemon) return;
      this.daemon = null;
      // Nobody reads the emulators now: every pane reads freely into its ring.
      for (const pane of this.panes.values()) pane.resume('daemon', 'socket');
      this.options.log('daemon detached');
      this.checkIdle();
    });
    socket.on('drain', () => {
      if (socket === this.daemon) for (const pane of this.panes.values()) pane.resume('socket');
    });
  }

  private send(socket: Socket, message: HostMessage): void {
    if (!socket.destroyed) socket.write(encodeControl(message));
  }

  private onMessage(socket: Socket, message: DaemonMessage): void {
    if (message === null || typeof message !== 'object') return;
    if (message.t === 'hello') return this.hello(socket, message.version);
    if (socket !== this.daemon) return; // only the attached daemon steers panes
    const pane = 'handle' in message ? this.panes.get(message.handle) : undefined;
    switch (message.t) {
      case 'spawn':
        return this.spawn(socket, message);
      case 'resize':
        return pane?.resize(message.cols, message.rows);
      case 'pause':
        return pane?.pause('daemon');
      case 'resume':
        return pane?.resume('daemon');
      case 'terminate':
        return pane?.terminate();
      case 'kill':
        return pane?.kill();
      case 'meta':
        if (pane) pane.meta = message.meta;
        return;
      case 'forget':
        if (pane?.exit !== null && pane !== undefined) {
          pane.dispose();
          this.panes.delete(pane.handle);
        }
        return;
      case 'shutdown':
        void this.shutdown().then(() => {
          this.send(socket, { t: 'shutdown', id: message.id });
          socket.end();
          this.options.idle();
        });
        return;
    }
  }

  private hello(socket: Socket, version: number): void {
    if (version !== HOST_PROTOCOL_VERSION) {
      this.send(socket, { t: 'refused', version: HOST_PROTOCOL_VERSION, message: `this pty host speaks version ${HOST_PROTOCOL_VERSION}, not ${version}` });
      socket.end();
      return;
    }
    if (this.lifecycle !== 'serving') {
      this.send(socket, { t: 'refused', version: HOST_PROTOCOL_VERSION, message: 'this pty host is shutting down' });
      socket.end();
      return;
    }
    const previous = this.daemon;
    this.daemon = socket;
    previous?.destroy();
    const panes = [...this.panes.values()];
    this.send(socket, { t: 'hello', version: HOST_PROTOCOL_VERSION, pid: process.pid, startedAt: this.startedAt, ringBytes: this.ringBytes, panes: panes.map((pane) => pane.info()) });
    // Each ring goes out before any live output, on the same ordered stream: nothing is lost or doubled.
    for (const pane of panes) socket.write(encodeData(FrameKind.replay, pane.handle, pane.ring.contents()));
    this.options.log(`daemon attached, ${panes.length} panes`);
  }

  private spawn(socket: Socket, message: Extract<DaemonMessage, { t: 'spawn' }>): void {
    const handle = this.nextHandle++;
    let pane: HostPane;
    try {
      pane = new HostPane(handle, message.meta, message, this.ringBytes, {
        output: (from, data) => this.forward(from, data),
        exit: (from, exit) => this.exited(from, exit),
        input: (from, received, pending) => this.daemon !== null && this.send(this.daemon, { t: 'input', handle: from.handle, received, pending }),
      });
    } catch (error) {
      this.send(socket, { t: 'failed', id: message.id, message: (error as Error).message });
      return;
    }
    this.panes.set(handle, pane);
    this.send(socket, { t: 'spawned', id: message.id, handle, pid: pane.pid });
  }

  private input(handle: number, data: Buffer): void {
    // Input passes through buffers of every size as output does: after a flood, the allocator gives them back.
    this.trim.noteActivity();
    this.panes.get(handle)?.write(data);
  }

  private forward(pane: HostPane, data: Buffer): void {
    this.trim.noteActivity();
    const socket = this.daemon;
    if (socket === null || socket.destroyed) return;
    // Header and output in one writev, so no byte of a flood is copied into a frame of its own.
    socket.cork();
    socket.write(dataHeader(FrameKind.output, pane.handle, data.length));
    const flushed = socket.write(data);
    socket.uncork();
    if (!flushed && socket.writableLength > HOST_SOCKET_HIGH_BYTES) pane.pause('socket');
  }

  private exited(pane: HostPane, exit: HostExit): void {
    if (this.daemon !== null) this.send(this.daemon, { t: 'exit', handle: pane.handle, exit });
    this.checkIdle();
  }

  private checkIdle(): void {
    if (this.daemon === null && this.running === 0 && this.lifecycle === 'serving') this.options.idle();
  }
}
