import { checkProtocol as check, ClientError, connect, type DaemonClient } from '../client/index.ts';
import type { ServerStatus } from '../protocol/methods/server.ts';

export { ClientError, DaemonClient, type ClientErrorCode } from '../client/index.ts';

/** The CLI ships with its daemon, so it refuses another protocol major (the typed client only warns). */
export function checkProtocol(client: DaemonClient): Promise<ServerStatus> {
  return check(client, { strict: true, warn: () => {} });
}

/**
 * Connects with the same client `corral/client` exports, checks the protocol, runs `use`, and always
 * closes the connection. With `deadlineMs`, one deadline covers all of it (connect, the protocol check,
 * the call and its answer): a daemon that accepts and never answers fails with `timeout` instead of
 * holding the caller forever.
 */
export async function withDaemon<T>(
  socketPath: string,
  use: (client: DaemonClient, status: ServerStatus) => Promise<T>,
  options: { deadlineMs?: number } = {},
): Promise<T> {
  const abandon = new AbortController();
  let connection: DaemonClient | null = null;
  const session = (async () => {
    const client = await connect({
      socket: socketPath,
      reconnect: false,
      strictProtocol: true,
      signal: abandon.signal,
      ...(options.deadlineMs !== undefined ? { connectTimeoutMs: options.deadlineMs } : {}),
    });
    if (abandon.signal.aborted) {
      client.close();
      throw new ClientError('timeout', 'abandoned');
    }
    connection = client.connection;
    try {
      return await use(client.connection, client.status);
    } finally {
      client.close();
    }
  })();
  if (options.deadlineMs === undefined) return session;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandon.abort();
      (connection as DaemonClient | null)?.dispose();
      reject(new ClientError('timeout', `the daemon at ${socketPath} did not answer within ${options.deadlineMs} ms`));
    }, options.deadlineMs);
  });
  session.catch(() => {}); // its failure after the deadline has nobody to tell
  try {
    return await Promise.race([session, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
