import { DaemonConnection } from './connection.ts';

/** A way to reach a daemon: each `dial` opens a new connection to it. */
export interface Endpoint {
  /** Names the daemon in messages: a socket path, or a host. */
  readonly label: string;
  dial(timeoutMs?: number): Promise<DaemonConnection>;
}

/** The daemon's socket path, or an endpoint that reaches it another way (a host through ssh). */
export type DaemonAddress = string | Endpoint;

/** The daemon listening on a Unix socket on this machine. */
export function socketEndpoint(path: string): Endpoint {
  return { label: path, dial: (timeoutMs) => DaemonConnection.connect(path, timeoutMs) };
}

export function endpointOf(address: DaemonAddress): Endpoint {
  return typeof address === 'string' ? socketEndpoint(address) : address;
}
