import type { IncomingMessage } from 'node:http';

/**
 * Which `Host` and `Origin` a request may carry. Loopback is no authentication: any web page can make
 * a browser reach 127.0.0.1, and DNS rebinding can give it any name. So the Host must be the address
 * listened on (or a name the user configured), and every WebSocket upgrade and state-changing request
 * must come from the page's own origin.
 */
export class OriginCheck {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(options: { address: string; port: number; names: readonly string[]; tls: boolean }) {
    const bare = [options.address, ...options.names, ...(isLoopback(options.address) ? ['localhost', '127.0.0.1', '[::1]'] : [])];
    const withPort = bare.map((host) => `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${options.port}`);
    this.hosts = new Set(withPort.map((host) => host.toLowerCase()));
    const scheme = options.tls ? 'https' : 'http';
    this.origins = new Set(withPort.map((host) => `${scheme}://${host}`.toLowerCase()));
  }

  /** Null when the Host is one of ours, else why not. */
  host(request: IncomingMessage): string | null {
    const host = request.headers.host?.toLowerCase();
    return host !== undefined && this.hosts.has(host) ? null : `the Host header ${JSON.stringify(request.headers.host ?? '')} is not this server's address`;
  }

  /** Null when the Origin is the page's own, else why not. A missing Origin is refused too. */
  origin(request: IncomingMessage): string | null {
    const origin = request.headers.origin?.toLowerCase();
    return origin !== undefined && this.origins.has(origin) ? null : `the Origin ${JSON.stringify(request.headers.origin ?? '')} is not this server's page`;
  }
}

export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\./.test(address);
}
