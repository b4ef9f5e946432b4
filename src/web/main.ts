import { connect, connectFleet, fleetHosts } from '../client/index.ts';
import { Assets } from './assets.ts';
import { FleetBoard } from './fleet-board.ts';
import { OneDaemonBoard } from './one-daemon-board.ts';
import { isLoopback } from './origin-check.ts';
import { SessionsControl, controlSocketPath } from './sessions-control.ts';
import { readTls, selfSignedTls, type TlsFiles } from './tls.ts';
import type { WebBoard } from './web-board.ts';
import { WebServer } from './web-server.ts';

/** `corral web`'s port unless --port says otherwise (docs/web.md). */
export const DEFAULT_WEB_PORT = 7380;

export interface WebOptions {
  socket: string;
  /** Every host of the fleet (docs/fleet.md) instead of the daemon at `socket` alone. */
  fleet: boolean;
  address: string;
  port: number;
  names: string[];
  tlsCert?: string;
  tlsKey?: string;
  /** Where a self-signed certificate is kept (the daemon's state folder). */
  tlsFolder: string;
  selfSigned: boolean;
  print(line: string): void;
  log(line: string): void;
}

export class WebStartError extends Error {}

function tlsFor(options: WebOptions): TlsFiles | undefined {
  if (options.tlsCert !== undefined || options.tlsKey !== undefined) {
    if (options.tlsCert === undefined || options.tlsKey === undefined) throw new WebStartError('--tls-cert and --tls-key go together');
    return readTls(options.tlsCert, options.tlsKey);
  }
  if (options.selfSigned) return selfSignedTls(options.tlsFolder, [options.address, ...options.names]);
  if (!isLoopback(options.address)) {
    throw new WebStartError(
      `--listen ${options.address} is not a loopback address: other machines would see the session cookie and every keystroke in clear. ` +
        'Pass --tls-cert FILE --tls-key FILE, or --tls-self-signed to make a certificate and print its fingerprint.',
    );
  }
  return undefined;
}

/** Runs `corral web` until SIGINT or SIGTERM: the URL goes to stdout, everything else to the log. */
export async function runWebServer(options: WebOptions): Promise<void> {
  const tls = tlsFor(options);
  const board = await boardFor(options);
  const assets = await Assets.load();
  const server = new WebServer({ board, assets, address: options.address, port: options.port, names: options.names, ...(tls ? { tls } : {}), log: options.log });
  try {
    await server.start();
  } catch (error) {
    board.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new WebStartError(`port ${options.port} on ${options.address} is taken (is another corral web running?); pass --port`);
    throw error;
  }
  // Listened for before the URL is printed: a script that reads the URL and then stops it (Ctrl-C) finds
  // the handler there, and the server closes cleanly instead of dying by the signal.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const control = await SessionsControl.listen(controlSocketPath(options.socket, server.port), server.sessions, (session) => server.pagesOf(session)).catch((error: Error) => {
    options.log(`\`corral web sessions\` cannot reach this server: ${error.message}`);
    return null;
  });
  // What is served, not how many pages are open (none yet): `corral web sessions` tells those.
  const agents = board.list().length;
  const hosts = options.fleet ? ` on ${board.hosts().length} host${board.hosts().length === 1 ? '' : 's'}` : '';
  options.log(`board of ${agents} agent${agents === 1 ? '' : 's'}${hosts} at ${server.origin} (page code ${Math.round(assets.bundleBytes.gzipped / 1024)} KiB gzipped)`);
  if (tls) options.print(`certificate SHA-256 fingerprint: ${tls.fingerprint}`);
  options.print(`open ${server.url}`);
  await stopped;
  control?.dispose();
  await server.close();
}

/** This daemon's board, or with --fleet one of every host, this machine first; a host that is away joins when it is back. */
async function boardFor(options: WebOptions): Promise<WebBoard> {
  if (!options.fleet) {
    return new OneDaemonBoard(await connect({ socket: options.socket, onWarning: (message) => options.log(message) }));
  }
  const hosts = fleetHosts({ socket: options.socket });
  const fleet = await connectFleet(hosts, { onWarning: (message) => options.log(message) });
  for (const host of fleet.hosts()) options.log(`host ${host.name}: ${host.state}${host.reason ? ` (${host.reason})` : ''}`);
  return new FleetBoard(fleet, options.log);
}
