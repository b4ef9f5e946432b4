import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { globalsOf } from '../globals.ts';
import { spansFleet } from '../fleet.ts';
import { UsageError } from '../print-error.ts';

/** The same default as the daemon's state folder (src/daemon/private-file.ts), without loading the daemon. */
function stateFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'corral');
}

export function registerWebCommand(program: Command): void {
  program
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
      const port = options.port === undefined ? undefined : Number(options.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError('--port must be an integer from 0 to 65535');
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
}
