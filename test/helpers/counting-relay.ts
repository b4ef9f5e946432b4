import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** A relay in front of a daemon's socket: what clients ask through it reaches the daemon unchanged, and is counted. */
export interface CountingRelay {
  /** The relay's socket, to give a client in place of the daemon's. */
  readonly socket: string;
  /** Every request's method, in the order the clients sent them (each connection's own order). */
  readonly methods: string[];
  /** Requests of these methods are held here, not sent on, until released: nothing can wait on their answers. */
  hold(methods: readonly string[]): void;
  /** Sends on every request held, and holds no more. */
  release(): void;
  close(): Promise<void>;
}

let relays = 0;

/** Starts a relay in `dir` in front of `daemonSocket`, logging each request's method as it passes. */
export async function startCountingRelay(daemonSocket: string, dir: string): Promise<CountingRelay> {
  const socket = join(dir, `relay-${relays++}.sock`);
  const methods: string[] = [];
  const open = new Set<Socket>();
  let holding = new Set<string>();
  const held: { upstream: Socket; line: string }[] = [];
  const server = createServer((client) => {
    const upstream = connect(daemonSocket);
    open.add(client).add(upstream);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    // Client to daemon line by line (NDJSON), so a request can be counted and held; the answers flow back as they come.
    client.on('data', (chunk: Buffer) => {
      pending += decoder.write(chunk);
      for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
        const line = pending.slice(0, at + 1);
        pending = pending.slice(at + 1);
        let method: unknown;
        try {
          method = (JSON.parse(line) as { method?: unknown }).method;
        } catch {
          // not JSON: the daemon answers it as it would
        }
        if (typeof method === 'string') methods.push(method);
        if (typeof method === 'string' && holding.has(method)) held.push({ upstream, line });
        else upstream.write(line);
      }
    });
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => (upstream.destroy(), open.delete(client)));
    upstream.on('close', () => (client.destroy(), open.delete(upstream)));
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    socket,
    methods,
    hold: (names) => (holding = new Set(names)),
    release: () => {
      holding = new Set();
      for (const { upstream, line } of held.splice(0)) if (!upstream.destroyed) upstream.write(line);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Connections still open (a client that outlives the test) do not hold the close.
        for (const each of open) each.destroy();
      }),
  };
}
