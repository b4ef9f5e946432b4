// An HTTP receiver on loopback for the webhook's tests: keeps every POST with the status it answered.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered it. */
  status: number;
}

export class LoopbackReceiver {
  readonly posts: ReceivedPost[] = [];
  /** The statuses the next posts are answered with, in turn; `reply` after them. */
  readonly replies: number[] = [];
  reply = 204;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<LoopbackReceiver> {
    let receiver: LoopbackReceiver;
    const server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (text: string) => (body += text));
      request.on('end', () => {
        const status = receiver.replies.shift() ?? receiver.reply;
        receiver.posts.push({ headers: request.headers, body, status });
        response.writeHead(status).end();
      });
    });
    receiver = new LoopbackReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
