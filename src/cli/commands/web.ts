import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { globalsOf } from '../globals.ts';
import { spansFleet } from '../fleet.ts';
import { UsageError } from '../print-error.ts';
import { printJson, printTable, printText } from '../output.ts';

/** The same default as the daemon's state folder (src/daemon/private-file.ts), without loading the daemon. */
function stateFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'corral');
}

function portOption(text: string | undefined): number | undefined {
  const port = text === undefined ? undefined : Number(text);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError('--port must be an integer from 0 to 65535');
  return port;
}

/** An error of `corral web sessions`, with its stable code. */
class SessionsError extends Error {
  constructor(
    readonly code: 'web_unreachable' | 'session_not_found',
    message: string,
  ) {
    super(message);
  }
}

/** One request to the running `corral web` on `port` (default 7380), through its private control socket. */
async function askWeb(cmd: Command, request: { list: true } | { revoke: number | 'all' }) {
  const { socket } = globalsOf(cmd);
  // `web` has a --port of its own, which commander may give the option to: the nearest one given.
  const portText = (cmd.optsWithGlobals() as { port?: string }).port;
  // Loaded only here: no other command needs it.
  const { askSessions, controlSocketPath } = await import('../../web/sessions-control.ts');
  const reply = await askSessions(controlSocketPath(socket, portOption(portText) ?? 7380), request).catch((error: Error) => {
    throw new SessionsError('web_unreachable', error.message);
  });
  if ('error' in reply) throw new Error(reply.error);
  return reply;
}

type Row = { number: number; label: string; signedIn: number; userAgent: string; pages: number };

function printSessions(rows: Row[], json: boolean, key: 'sessions' | 'revoked'): void {
  if (json) return printJson({ [key]: rows });
  if (rows.length === 0) return printText('no sessions: nobody is signed in');
  printTable(
    ['SESSION', 'SIGNED IN', 'PAGES', 'USER AGENT'],
    rows.map((row) => [`#${row.number}`, new Date(row.signedIn).toISOString().replace('T', ' ').slice(0, 16) + 'Z', String(row.pages), row.userAgent]),
  );
}

export function registerWebCommand(program: Command): void {
  const web = program
    .command('web')
    .description('serve every agent live to a browser or a phone, answered with one tap (docs/web.md)')
    .option('--port <n>', 'the port to listen on (default: 7380)')
    .option('--listen <address>', 'the address to listen on; anything but loopback needs TLS (default: 127.0.0.1)')
    .option('--name <host...>', 'another Host name the page is reached by (a LAN name, a proxy)')
    .option('--tls-cert <file>', 'a PEM certificate to serve HTTPS with (and --tls-key)')
    .option('--tls-key <file>', "the certificate's PEM private key")
    .option('--tls-self-signed', 'make a self-signed certificate (kept in the state folder) and print its fingerprint')
    .option('--fleet', 'one board of every host of the fleet, each card marked by host (default: [fleet] by_default; docs/fleet.md)')
    .option('--no-fleet', 'this machine only, whatever [fleet] by_default says')
    .action(async (options: { port?: string; listen?: string; name?: string[]; tlsCert?: string; tlsKey?: string; tlsSelfSigned?: boolean; fleet?: boolean }, cmd: Command) => {
      const { socket } = globalsOf(cmd);
      const port = portOption(options.port);
      // Loaded only here: no other command needs the web server or ws.
      const { DEFAULT_WEB_PORT, WebStartError, runWebServer } = await import('../../web/main.ts');
      try {
        await runWebServer({
          socket,
          fleet: spansFleet(options.fleet),
          address: options.listen ?? '127.0.0.1',
          port: port ?? DEFAULT_WEB_PORT,
          names: options.name ?? [],
          ...(options.tlsCert !== undefined ? { tlsCert: options.tlsCert } : {}),
          ...(options.tlsKey !== undefined ? { tlsKey: options.tlsKey } : {}),
          tlsFolder: stateFolder(),
          selfSigned: options.tlsSelfSigned === true,
          print: (line) => process.stdout.write(`${line}\n`),
          log: (line) => process.stderr.write(`${new Date().toISOString()} corral web: ${line}\n`),
        });
      } catch (error) {
        if (error instanceof WebStartError) throw new UsageError(error.message);
        throw error;
      }
    });

  const sessions = web
    .command('sessions')
    .description('the browsers signed in to the running corral web: each one, when it signed in, its user agent and open pages')
    .option('--port <n>', 'the port of that corral web (default: 7380)')
    .action(async (_options: unknown, cmd: Command) => {
      const reply = await askWeb(cmd, { list: true });
      if ('sessions' in reply) printSessions(reply.sessions, globalsOf(cmd).json, 'sessions');
    });
  sessions
    .command('revoke <session>')
    .description('sign a browser out (its number, as `#3` or `3`, or `all`): its pages close at once, and it needs the printed URL again')
    .option('--port <n>', 'the port of that corral web (default: 7380)')
    .action(async (which: string, _options: unknown, cmd: Command) => {
      const number = which === 'all' ? 'all' : Number(which.replace(/^#/, ''));
      if (number !== 'all' && !Number.isInteger(number)) throw new UsageError('revoke takes a session number (#3, 3) or all');
      const reply = await askWeb(cmd, { revoke: number });
      if (!('revoked' in reply)) return;
      if (reply.revoked.length === 0 && number !== 'all') throw new SessionsError('session_not_found', `no session #${number}: \`corral web sessions\` lists them`);
      printSessions(reply.revoked, globalsOf(cmd).json, 'revoked');
    });
}
