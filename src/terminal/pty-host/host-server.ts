import { createServer, type Server, type Socket } from 'node:net';
import { AllocatorTrim } from '../allocator-trim.ts';
import { judgePeer } from './daemon-peer.ts';
import { HostPane } from './host-pane.ts';
import { OrphanReaper } from './orphan-reaper.ts';
import { Refusals } from './refusals.ts';
import { RING_BYTES } from './ring.ts';
import {
  FrameKind,
  FrameReader,
  HOST_PROTOCOL_VERSION,
  HostFrameError,
  MAX_HELLO_FRAME_BYTES,
  MAX_HOST_FRAME_BYTES,
  encodeControl,
  dataHeader,
  encodeData,
  type DaemonMessage,
  type HostExit,
  type HostMessage,
  type HostRefusal,
} from './wire.ts';

/** Output queued on the daemon's socket above which the panes writing it are paused. */
export const HOST_SOCKET_HIGH_BYTES = 4 * 1024 * 1024;
/**
 * Connections held at once, the attached daemon's included: only the lock's holder gets one (one
 * daemon, and a second while it takes over), so a few are plenty.
 */
export const MAX_HOST_CONNECTIONS = 8;
/** How long a connection may take to say hello; the daemon says it as it connects. */
export const HELLO_TIMEOUT_MS = 5_000;
/**
 * How long a host with no pane running and no daemon stays for the next daemon, when a pane exited
 * while none was attached: that daemon then tells its exit (`pane.exited`, the code) instead of
 * listing the pane as lost. A daemon restart takes seconds; a daemon stopped for longer than this
 * finds the pane lost.
 */
export const UNTOLD_EXIT_LINGER_MS = 10 * 60_000;

export interface HostServerOptions {
  socketPath: string;
  /** The daemon's lock (src/terminal/pty-host/daemon-lock.ts): only the process holding it is served. */
  lockPath: string;
  ringBytes?: number;
  /** Called once the host has nothing left to do: no daemon attached and no pane running. */
  idle(): void;
  log(message: string): void;
}

type Lifecycle = 'serving' | 'shutting_down' | 'closed';

/**
 * The pty host's server: at most one attached daemon, the panes by handle. Only the process holding
 * the daemon's lock, outside every pane, is served (daemon-peer.ts); a new one that says hello takes
 * over from the previous one (which is gone, or about to be).
 */
export class HostServer {
  private readonly server: Server;
  private readonly panes = new Map<number, HostPane>();
  private nextHandle = 1;
  private daemon: Socket | null = null;
  private readonly connections = new Set<Socket>();
  private lifecycle: Lifecycle = 'serving';
  private readonly ringBytes: number;
  /** Panes that exited while no daemon was attached: no daemon has heard of their exit yet. */
  private readonly untold = new Set<number>();
  private linger: NodeJS.Timeout | null = null;
  private readonly trim = new AllocatorTrim();
  private readonly reaper = new OrphanReaper(() => this.runningPids());
  private readonly refusals: Refusals;
  readonly startedAt = Date.now();

  constructor(private readonly options: HostServerOptions) {
    this.ringBytes = options.ringBytes ?? RING_BYTES;
    this.refusals = new Refusals(options.log);
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

  private runningPids(): number[] {
    const pids: number[] = [];
    for (const pane of this.panes.values()) if (pane.exit === null) pids.push(pane.pid);
    return pids;
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
    if (this.linger) clearTimeout(this.linger);
    this.trim.dispose();
    this.reaper.dispose();
    this.refusals.dispose();
    for (const connection of this.connections) connection.destroy();
    for (const pane of this.panes.values()) pane.dispose();
    this.panes.clear();
    this.daemon?.destroy();
    this.server.close();
  }

  /**
   * A connection is served only when its peer may be the daemon, and within bounds: at most
   * MAX_HOST_CONNECTIONS, hello within HELLO_TIMEOUT_MS, and frames of MAX_HELLO_FRAME_BYTES until then.
   */
  private accept(socket: Socket): void {
    socket.on('error', () => socket.destroy());
    const verdict = judgePeer(socket, this.options.lockPath);
    if (!verdict.daemon) return this.refuse(socket, verdict.reason, verdict.message);
    if (this.connections.size >= MAX_HOST_CONNECTIONS) {
      return this.refuse(socket, 'too_many_connections', `this pty host holds its most connections (${MAX_HOST_CONNECTIONS}) already`);
    }
    this.connections.add(socket);
    const reader = new FrameReader(MAX_HELLO_FRAME_BYTES);
    let greeted = false;
    // Judged after this turn's reads (setImmediate): a host that was too busy to run its timers on
    // time has read a hello that came in time by then, and does not refuse it.
    const helloTimer = setTimeout(() => {
      setImmediate(() => {
        if (!greeted) this.refuse(socket, 'hello_timeout', `no hello within ${HELLO_TIMEOUT_MS} ms of connecting`);
      });
    }, HELLO_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      if (this.refusals.has(socket)) return; // refused: nothing more it sends is read
      let frames;
      try {
        frames = reader.push(chunk);
      } catch (error) {
        const frameError = error instanceof HostFrameError ? error : new HostFrameError('bad_frame', String(error));
        if (!greeted) return this.refuse(socket, frameError.code === 'frame_too_large' ? 'frame_too_large' : 'hello_expected', frameError.message);
        this.options.log(`bad frame from the daemon: ${frameError.message}`);
        socket.destroy();
        return;
      }
      for (const frame of frames) {
        if (!greeted) {
          const message = frame.kind === FrameKind.control ? (frame.message as DaemonMessage | null) : null;
          if (message === null || typeof message !== 'object' || message.t !== 'hello') return this.refuse(socket, 'hello_expected', 'the first frame must be hello');
          clearTimeout(helloTimer);
          if (!this.hello(socket, message.version)) return;
          greeted = true;
          reader.limit = MAX_HOST_FRAME_BYTES;
        } else if (frame.kind === FrameKind.control) this.onMessage(socket, frame.message as DaemonMessage);
        else if (frame.kind === FrameKind.input && socket === this.daemon) this.input(frame.handle, frame.data);
      }
    });
    socket.on('close', () => {
      clearTimeout(helloTimer);
      // A half-sent frame's buffer is garbage now: ask for the memory back, as after output.
      if (reader.release()) this.trim.noteActivity();
      this.connections.delete(socket);
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

  /** Refuses `socket` (refusals.ts) and frees its place at once; the attached daemon is not touched. */
  private refuse(socket: Socket, reason: HostRefusal, message: string): void {
    this.connections.delete(socket);
    this.refusals.refuse(socket, reason, message);
  }

  private onMessage(socket: Socket, message: DaemonMessage): void {
    if (message === null || typeof message !== 'object') return;
    if (socket !== this.daemon) return; // only the attached daemon steers panes
    if (message.t === 'hello') return void this.hello(socket, message.version);
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
          this.untold.delete(pane.handle);
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

  /** Attaches the daemon on `socket`, or refuses it; whether it attached. */
  private hello(socket: Socket, version: number): boolean {
    if (version !== HOST_PROTOCOL_VERSION) {
      this.refuse(socket, 'version_mismatch', `this pty host speaks version ${HOST_PROTOCOL_VERSION}, not ${version}`);
      return false;
    }
    if (this.lifecycle !== 'serving') {
      this.refuse(socket, 'shutting_down', 'this pty host is shutting down');
      return false;
    }
    const previous = this.daemon;
    this.daemon = socket;
    previous?.destroy();
    const panes = [...this.panes.values()];
    // Every exit is in the panes' info: the new daemon hears of them all.
    this.untold.clear();
    if (this.linger) clearTimeout(this.linger);
    this.linger = null;
    this.send(socket, { t: 'hello', version: HOST_PROTOCOL_VERSION, pid: process.pid, startedAt: this.startedAt, ringBytes: this.ringBytes, panes: panes.map((pane) => pane.info()) });
    // Each ring goes out before any live output, on the same ordered stream: nothing is lost or doubled.
    for (const pane of panes) socket.write(encodeData(FrameKind.replay, pane.handle, pane.ring.contents()));
    this.options.log(`daemon attached, ${panes.length} panes`);
    return true;
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
    // Header and output in one writev, so no byte of a flood is copied into a frame of its own; and
    // every pane's output read in this turn of the event loop in that same writev: with 100 panes
    // redrawing, one write (and one read in the daemon) per turn instead of one per pane.
    if (!socket.writableCorked) {
      socket.cork();
      setImmediate(() => socket.uncork());
    }
    socket.write(dataHeader(FrameKind.output, pane.handle, data.length));
    const flushed = socket.write(data);
    if (!flushed && socket.writableLength > HOST_SOCKET_HIGH_BYTES) pane.pause('socket');
  }

  private exited(pane: HostPane, exit: HostExit): void {
    this.reaper.reap(); // node-pty reaped the pane's process: the orphans its exit hid can be seen
    if (this.daemon !== null) this.send(this.daemon, { t: 'exit', handle: pane.handle, exit });
    else this.untold.add(pane.handle);
    this.checkIdle();
  }

  /** Nothing left to do: no daemon and no pane running, and no exit to tell (or it waited long enough). */
  private checkIdle(): void {
    if (this.daemon !== null || this.running > 0 || this.lifecycle !== 'serving') return;
    if (this.untold.size === 0) return this.options.idle();
    this.linger ??= setTimeout(() => {
      this.linger = null;
      this.untold.clear(); // waited long enough: the next daemon finds these panes lost
      this.checkIdle();
    }, UNTOLD_EXIT_LINGER_MS);
  }
}
