import { ClientError, connect, endpointFor, hostByName, LOCAL_HOST, splitHostTarget, type CorralClient } from '../client/index.ts';

type Args = Record<string, unknown>;

/**
 * The tools' targets may name a host (`api@build`, docs/fleet.md): a call whose targets are all on
 * one host runs there, on a client of that host's daemon opened at first use and kept for the
 * session; targets without a host are this machine's.
 */
export class HostClients {
  private readonly clients = new Map<string, Promise<CorralClient>>();

  constructor(
    private readonly local: CorralClient,
    private readonly socket: string,
  ) {}

  /** The client the call's targets are on, and its arguments with the targets as that host names them. */
  async route(args: Args): Promise<{ client: CorralClient; args: Args }> {
    const names = [args.target, ...(Array.isArray(args.targets) ? args.targets : [])].filter((value): value is string => typeof value === 'string');
    const hosts = new Set(names.map((name) => splitHostTarget(name).host ?? LOCAL_HOST));
    if (hosts.size > 1) throw new ClientError('host_not_found', `the targets are on ${hosts.size} hosts (${[...hosts].join(', ')}); call the tool once per host`);
    const host = [...hosts][0] ?? LOCAL_HOST;
    if (host === LOCAL_HOST) return { client: this.local, args: this.bare(args) };
    return { client: await this.clientOf(host), args: this.bare(args) };
  }

  close(): void {
    for (const client of this.clients.values()) void client.then((c) => c.close()).catch(() => {});
  }

  private clientOf(host: string): Promise<CorralClient> {
    let client = this.clients.get(host);
    if (!client) {
      client = connect({ endpoint: endpointFor(hostByName(host, { socket: this.socket })), onWarning: (message) => process.stderr.write(`corral mcp: ${message}\n`) });
      // A host that could not be reached is tried again at the next call, not remembered as down.
      client.catch(() => this.clients.delete(host));
      this.clients.set(host, client);
    }
    return client;
  }

  private bare(args: Args): Args {
    const strip = (value: unknown) => (typeof value === 'string' ? splitHostTarget(value).target : value);
    return {
      ...args,
      ...(args.target !== undefined ? { target: strip(args.target) } : {}),
      ...(Array.isArray(args.targets) ? { targets: args.targets.map(strip) } : {}),
    };
  }
}
