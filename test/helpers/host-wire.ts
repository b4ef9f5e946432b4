import { connect, type Socket } from 'node:net';
import { FrameKind, FrameReader, encodeControl, type DaemonMessage, type Frame } from '../../src/terminal/pty-host/wire.ts';

/** A bare connection to a pty host's socket: what it sends, frame by frame, and when it closes. */
export class HostSocket {
  private readonly reader = new FrameReader(Number.MAX_SAFE_INTEGER);
  readonly frames: Frame[] = [];
  readonly closed: Promise<void>;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.frames.push(...this.reader.push(chunk));
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => {
      this.wake();
      resolve();
    }));
  }

  static connect(path: string): Promise<HostSocket> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('connect', () => resolve(new HostSocket(socket)));
      socket.once('error', reject);
    });
  }

  hello(version = 3): void {
    this.socket.write(encodeControl({ t: 'hello', version }));
  }

  send(message: DaemonMessage): void {
    this.socket.write(encodeControl(message));
  }

  /** The first control message, once it came; rejects when the socket closes first or after `timeoutMs`. */
  message(timeoutMs = 10_000): Promise<any> {
    return this.until(() => true, timeoutMs);
  }

  /** The first control message that `accept` takes, once it came; rejects as `message` does. */
  async until(accept: (message: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const control = this.frames.find((frame) => frame.kind === FrameKind.control && accept(frame.message));
      if (control?.kind === FrameKind.control) return control.message;
      if (this.socket.destroyed) throw new Error('the host closed the connection without a message');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no message from the host in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
