import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebPushTestingServer from 'web-push-testing/src/server.js';
import { PushApiModel } from 'web-push-testing/src/PushApiModel.js';

/** A request the push service received: its RFC 8030 headers and what it answered. */
export interface PushRequest {
  device: string;
  headers: IncomingHttpHeaders;
  status: number;
  /** When the request reached the service, in ms on CLOCK_MONOTONIC (bench/lib/blocking-agent.ts clockNow). */
  at: number;
}

/** A browser's subscription to this push service, and its id there (web-push-testing's client hash). */
export interface TestSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

/**
 * A local push service on a loopback port, as a browser's push service and the browser would take a
 * push: web-push-testing checks the VAPID JWT against the key the subscription was made with, and
 * decrypts the aes128gcm payload with the subscription's own keys. In front of it, this records each
 * request's headers and can answer the next ones with a status of the test's choosing (429, 503).
 */
export class LocalPushService {
  readonly requests: PushRequest[] = [];
  private readonly scripted: number[] = [];
  private hold: Promise<void> | null = null;
  /** Requests waiting behind `stall` now. */
  held = 0;

  private constructor(
    private readonly server: Server,
    private readonly model: PushApiModel,
    readonly origin: string,
  ) {}

  static async start(): Promise<LocalPushService> {
    const model = new PushApiModel();
    const testing = new WebPushTestingServer(model, 0);
    testing.setRequestHandlers();
    let service: LocalPushService | undefined;
    const server = createServer((request, response) => {
      const at = Number(process.hrtime.bigint()) / 1e6;
      const device = /^\/notify\/([0-9a-f]+)$/.exec(request.url ?? '')?.[1];
      if (device === undefined || service === undefined) return testing._app(request, response);
      void service.take().then((scripted) => {
        response.on('finish', () => service!.requests.push({ device, headers: request.headers, status: response.statusCode, at }));
        if (scripted === null) return testing._app(request, response);
        request.resume();
        response.writeHead(scripted, scripted === 429 ? { 'retry-after': '1' } : {});
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    model.notifyUrl = `${origin}/notify/`;
    service = new LocalPushService(server, model, origin);
    return service;
  }

  /** A subscription as a browser would make it with the daemon's public key. */
  async subscribe(applicationServerKey: string): Promise<TestSubscription> {
    const made = await this.model.subscribe({ applicationServerKey, userVisibleOnly: 'true' });
    return { endpoint: made.endpoint, expirationTime: null, keys: made.keys, clientHash: made.clientHash };
  }

  /** The payloads the device received, decrypted, as JSON. */
  messages(subscription: TestSubscription): unknown[] {
    return this.model.getNotifications({ clientHash: subscription.clientHash }).messages.map((text) => JSON.parse(text) as unknown);
  }

  /** The device unsubscribed: its next push is answered 410 Gone. */
  expire(subscription: TestSubscription): void {
    this.model.expireSubscription(subscription.clientHash);
  }

  /** The next pushes are answered these statuses, in order, before any reaches the service. */
  answerNext(...statuses: number[]): void {
    this.scripted.push(...statuses);
  }

  /** Holds every push until `release` is called: a push service that does not answer. */
  stall(): () => void {
    let release!: () => void;
    this.hold = new Promise((resolve) => (release = resolve));
    return () => {
      this.hold = null;
      release();
    };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async take(): Promise<number | null> {
    if (this.hold !== null) {
      this.held += 1;
      await this.hold;
      this.held -= 1;
    }
    return this.scripted.shift() ?? null;
  }
}
