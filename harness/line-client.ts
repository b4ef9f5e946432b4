// A socket client reading NDJSON lines that tells answers from notifications, and callers on it.
import { connect, type Socket } from 'node:net';

/** A socket client reading NDJSON lines, telling answers (lines with an id member) from notifications. */
export class LineClient {
  private buffer = '';
  private readonly answers: unknown[] = [];
  private wake: (() => void) | null = null;
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.buffer += text;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        try {
          const message = JSON.parse(line) as Record<string, unknown> | unknown[];
          // A batch is answered with an array of replies; a notification has no id.
          if (Array.isArray(message) || 'id' in message) this.answers.push(message);
        } catch {
          this.answers.push({ unparsable: line });
        }
      }
      this.wake?.();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static connect(path: string): Promise<LineClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('connect', () => resolve(new LineClient(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** The next answer, or null if none came in time or the socket closed first. */
  async nextAnswer(timeoutMs: number): Promise<Record<string, unknown> | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.answers.length === 0) {
      if (this.closed || Date.now() >= deadline) return null;
      await this.until(deadline);
    }
    return this.answers.shift() as Record<string, unknown>;
  }

  async closedWithin(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await this.until(deadline);
    return this.closed;
  }

  private until(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }
}

/** One request on `client`; an answer that never comes (a bound, not a timing) reads as the error no_answer. */
export async function request(client: LineClient, id: number, method: string, params: unknown): Promise<any> {
  client.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  return (await client.nextAnswer(60_000)) ?? { error: { data: { code: 'no_answer' } } };
}

/** Requests on `client` one at a time, numbered in turn. */
export function numberedCaller(client: LineClient): (method: string, params: unknown) => Promise<any> {
  let id = 0;
  return (method, params) => request(client, ++id, method, params);
}

/** Like numberedCaller, but gives each call's result and throws on its error (for probes and benches). */
export function resultCaller(client: LineClient): (method: string, params: unknown) => Promise<any> {
  const call = numberedCaller(client);
  return async (method, params) => {
    const answer = await call(method, params);
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
}
