import { connect, type Socket } from 'node:net';
import type { DaemonProcess } from './daemon.ts';

/** A bare socket to the daemon for sending arbitrary bytes and reading replies line by line. */
export class RawClient {
  private buffer = '';
  private readonly lines: string[] = [];
  private waiters: Array<() => void> = [];
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.buffer += text;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        this.lines.push(this.buffer.slice(0, nl));
        this.buffer = this.buffer.slice(nl + 1);
      }
      this.wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => {
      this.wake();
      resolve();
    }));
  }

  static connect(path: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('connect', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  request(id: number, method: string, params?: unknown): void {
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`);
  }

  /** The next reply as parsed JSON; rejects on timeout or when the socket closes first. */
  async next(timeoutMs = 5000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (this.socket.destroyed || this.socket.readableEnded) throw new Error('socket closed before a reply');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no reply in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return JSON.parse(this.lines.shift()!);
  }

  /** Sends a request and returns its reply. */
  async call(id: number, method: string, params?: unknown): Promise<any> {
    this.request(id, method, params);
    return this.next();
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** A raw client whose `call` returns the result and throws the reply's error (as `rpc`). */
export async function connectCalling(daemon: DaemonProcess): Promise<{ client: RawClient; call(method: string, params?: unknown): Promise<any> }> {
  const client = await RawClient.connect(daemon.socket);
  let id = 1;
  return {
    client,
    async call(method, params) {
      const reply = await client.call(id++, method, params);
      if (reply.error) throw Object.assign(new Error(`${method}: ${reply.error.message}`), { rpc: reply.error });
      return reply.result;
    },
  };
}
