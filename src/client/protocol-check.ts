import { SERVER_STATUS, type ServerStatus } from '../protocol/methods/server.ts';
import { PROTOCOL_VERSION } from '../protocol/version.ts';
import { ClientError, type DaemonConnection } from './connection.ts';

/**
 * Asks the daemon's status and compares protocol majors (docs/protocol.md, "Versions"). On another
 * major, `strict` refuses (the CLI, which ships with its daemon) and otherwise `warn` is told.
 */
export async function checkProtocol(
  connection: DaemonConnection,
  options: { strict: boolean; warn: (message: string) => void },
): Promise<ServerStatus> {
  const status = await connection.call(SERVER_STATUS, {});
  if (status.protocolVersion !== PROTOCOL_VERSION) {
    const message =
      `this corral speaks protocol ${PROTOCOL_VERSION} but the daemon at ${connection.socketPath} (version ${status.version}, ` +
      `pid ${status.pid}) speaks ${status.protocolVersion}`;
    if (options.strict) throw new ClientError('protocol_mismatch', `${message}; restart the daemon from the same checkout`);
    options.warn(`${message}; calls whose shape changed may fail`);
  }
  return status;
}
