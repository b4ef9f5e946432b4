import { checkProtocol as check, ClientError, endpointOf, type DaemonAddress, type DaemonConnection } from '../client/index.ts';
import type { ServerStatus } from '../protocol/methods/server.ts';

export { ClientError, DaemonConnection, type ClientErrorCode } from '../client/index.ts';

/** The CLI ships with its daemon, so it refuses another protocol major (the typed client only warns). */
export function checkProtocol(client: DaemonConnection): Promise<ServerStatus> {
  return check(client, { strict: true, warn: () => {} });
}

/**
 * Opens one connection (the one `corral/client` is built on; the CLI never reconnects) to the daemon
 * at a socket path or an endpoint (a host through ssh: src/client/fleet/ssh-endpoint.ts), checks the
 * protocol, runs `use`, and always closes the connection. With `deadlineMs`, one deadline covers all
 * of it (connect, the protocol check, the call and its answer): a daemon that accepts and never
 * answers fails with `timeout` instead of holding the caller forever.
 */
export async function withDaemon<T>(
  address: DaemonAddress,
  use: (connection: DaemonConnection, status: ServerStatus) => Promise<T>,
  options: { deadlineMs?: number } = {},
): Promise<T> {
  const endpoint = endpointOf(address);
  let abandoned = false;
  let connection: DaemonConnection | null = null;
  const session = (async () => {
    const opened = await endpoint.dial(options.deadlineMs);
    if (abandoned) {
      opened.dispose();
      throw new ClientError('timeout', 'abandoned');
    }
    connection = opened;
    try {
      return await use(opened, await checkProtocol(opened));
    } finally {
      opened.dispose();
    }
  })();
  if (options.deadlineMs === undefined) return session;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned = true;
      (connection as DaemonConnection | null)?.dispose();
      reject(new ClientError('timeout', `the daemon at ${endpoint.label} did not answer within ${options.deadlineMs} ms`));
    }, options.deadlineMs);
  });
  session.catch(() => {}); // its failure after the deadline has nobody to tell
  try {
    return await Promise.race([session, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
