import { SERVER_STATUS, type ServerStatus } from '../protocol/methods/server.ts';
import { PROTOCOL_VERSION } from '../protocol/version.ts';
import { ClientError, type DaemonConnection } from './connection.ts';
import { printable } from './printable.ts';

/** The fields of a status every protocol major has had, which this check reads, and their types. */
const HELLO_FIELDS = { version: 'string', protocolVersion: 'number', pid: 'number' } as const;

/**
 * Asks the daemon's status and compares protocol majors (docs/protocol.md, "Versions"). On another
 * major, `strict` refuses (the CLI, which ships with its daemon) and otherwise `warn` is told. An
 * answer that is not a status at all is `bad_reply`: whatever answered is not a corral daemon.
 */
export async function checkProtocol(
  connection: DaemonConnection,
  options: { strict: boolean; warn: (message: string) => void },
): Promise<ServerStatus> {
  const status: unknown = await connection.call(SERVER_STATUS, {});
  const wrong = Object.entries(HELLO_FIELDS).find(([field, type]) => typeof (status as Record<string, unknown> | null)?.[field] !== type);
  if (typeof status !== 'object' || status === null || wrong) {
    const what = wrong ? `its ${wrong[0]} is ${describe((status as Record<string, unknown> | null)?.[wrong[0]])}, not a ${wrong[1]}` : `it is ${describe(status)}`;
    const error = new ClientError(
      'bad_reply',
      `the daemon at ${connection.socketPath} answered server.status with something that is not a daemon's status (${what}): check that what answers there is corral`,
    );
    connection.breakOff(error);
    throw error;
  }
  const hello = status as ServerStatus;
  if (hello.protocolVersion !== PROTOCOL_VERSION) {
    const message =
      `this corral speaks protocol ${PROTOCOL_VERSION} but the daemon at ${connection.socketPath} (version ${printable(hello.version, 40)}, ` +
      `pid ${hello.pid}) speaks ${hello.protocolVersion}`;
    if (options.strict) throw new ClientError('protocol_mismatch', `${message}; restart the daemon from the same checkout`);
    options.warn(`${message}; calls whose shape changed may fail`);
  }
  return hello;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'missing' : `a ${typeof value}`;
}
