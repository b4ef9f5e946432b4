import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Duplex } from 'node:stream';
import type { HostSpec } from '../../protocol/fleet-config.ts';
import { SERVER_STATUS } from '../../protocol/methods/server.ts';
import { ClientError, DaemonConnection } from '../connection.ts';
import type { Endpoint } from '../endpoint.ts';
import { printable } from '../printable.ts';
import { shellQuote } from './shell-quote.ts';

/** The longest a dial may take: ssh's handshake plus the remote corral's start. */
const DIAL_TIMEOUT_MS = 20_000;
/** What is kept of ssh's stderr to say why a host could not be reached: its end. */
const STDERR_TAIL_BYTES = 2048;
/**
 * The most ssh's stderr may carry over one connection: ssh and `corral server bridge` write a few
 * lines at most, so a host that writes more is ended rather than read on.
 */
export const MAX_STDERR_BYTES = 1 << 20;
/** The most of ssh's last line of stderr a reason quotes. */
const REASON_CHARS = 300;
/**
 * A silent network drop is noticed by ssh's keepalive: no answer to 3 probes 5 s apart (15 s), then
 * ssh exits and the host shows offline. A closed connection is noticed at once.
 */
const SSH_DEFAULTS = ['-T', '-o', 'BatchMode=yes', '-o', 'ServerAliveInterval=5', '-o', 'ServerAliveCountMax=3', '-o', 'ConnectTimeout=10'];

/**
 * The one way a host entry becomes an ssh command line that runs corral there with `args`: $CORRAL_SSH
 * (default `ssh`, split on spaces), the host's `ssh_options`, then `flags`, then on the host `COMMAND
 * [--socket S] ARGS` quoted for its shell. `corral` replaces the quoted `command` by shell text as it
 * is ($CORRAL_REMOTE_COMMAND, for a destination no `[[hosts]]` entry names).
 */
export function sshArgvFor(host: HostSpec, args: string[], flags: string[], env: NodeJS.ProcessEnv = process.env, corral?: string): string[] {
  if (host.ssh === null) throw new Error(`host ${host.name} is this machine: it needs no ssh`);
  const [ssh = 'ssh', ...options] = (env.CORRAL_SSH ?? 'ssh').split(/\s+/).filter(Boolean);
  const command = corral ?? host.command.map(shellQuote).join(' ');
  const remote = [command, ...[...(host.socket !== null ? ['--socket', host.socket] : []), ...args].map(shellQuote)].join(' ');
  return [ssh, ...options, ...host.sshOptions, ...flags, '--', host.ssh, remote];
}

/** The ssh command line that joins a local connection to the host's daemon: no terminal and no password prompt, then `server bridge`. */
export function bridgeArgv(host: HostSpec, env: NodeJS.ProcessEnv = process.env): string[] {
  return sshArgvFor(host, ['server', 'bridge'], SSH_DEFAULTS, env);
}

/** The last STDERR_TAIL_BYTES of a stream, kept with one small copy per chunk, and how much came in all. */
class StderrTail {
  private tail = Buffer.alloc(0);
  total = 0;

  add(chunk: Buffer): void {
    this.total += chunk.length;
    this.tail = Buffer.from(chunk.length >= STDERR_TAIL_BYTES ? chunk.subarray(-STDERR_TAIL_BYTES) : Buffer.concat([this.tail, chunk]).subarray(-STDERR_TAIL_BYTES));
  }

  text(): string {
    return this.tail.toString('utf8');
  }
}

/** Why the bridge ended, from ssh's exit and the end of its stderr. */
function reasonOf(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const last = printable(stderr.trim().split('\n').at(-1)?.replace(/^corral: /, '') ?? '', REASON_CHARS);
  if (code === 0) return 'the daemon on the host closed the connection (it stopped or restarted; agents keep running)';
  const exit = signal !== null ? `ssh ended by ${signal}` : code === 255 ? 'ssh lost or could not make the connection (exit 255)' : `corral on the host exited with ${code}`;
  return last ? `${exit}: ${last}` : exit;
}

/**
 * ssh's stdout and stdin as one stream that closes only when it is destroyed (after ssh exited, so its
 * reason is known by then). Reading is paused while the connection has not taken the last chunk.
 */
function pipesOf(child: ChildProcessWithoutNullStreams): Duplex {
  const stream = new Duplex({
    read: () => child.stdout.resume(),
    write: (chunk: Buffer, _encoding, done) => {
      if (child.stdin.writable) child.stdin.write(chunk, () => done());
      else done();
    },
    final: (done) => {
      child.stdin.end();
      done();
    },
    destroy: (_error, done) => {
      child.stdin.destroy();
      child.stdout.destroy();
      done(null);
    },
  });
  child.stdin.on('error', () => {}); // ssh gone: its exit says why
  child.stdout.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) child.stdout.pause();
  });
  return stream;
}

/**
 * A host reached through ssh: each dial starts `ssh HOST corral server bridge` and speaks JSON-RPC
 * over its stdin and stdout. The dial resolves once the daemon there answers `server.status`, and
 * rejects with `daemon_unreachable` and ssh's reason otherwise; closing the connection ends ssh.
 */
export function sshEndpoint(host: HostSpec, env: NodeJS.ProcessEnv = process.env): Endpoint {
  const label = `${host.name} (${host.ssh})`;
  return {
    label,
    dial: async (timeoutMs = DIAL_TIMEOUT_MS) => {
      const [command, ...args] = bridgeArgv(host, env);
      const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const stderr = new StderrTail();
      let flooded = false;
      child.stderr.on('data', (chunk: Buffer) => {
        stderr.add(chunk);
        if (stderr.total <= MAX_STDERR_BYTES || flooded) return;
        flooded = true;
        child.stderr.destroy();
        child.kill('SIGTERM');
      });
      const stream = pipesOf(child);
      let reason: string | null = null;
      const ended = new Promise<string>((resolve) => {
        child.once('error', (error) => resolve((reason = `cannot run ${command} (${error.message})`)));
        child.once('close', (code, signal) =>
          resolve((reason = flooded ? `the host wrote more than 1 MiB to ssh's stderr, and ssh was ended: see what \`ssh ${host.ssh}\` with the host's command prints there` : reasonOf(code, signal, stderr.text()))),
        );
      });
      // Either end closes both: ssh gone closes the connection (once its reason is known), and a closed connection ends ssh.
      void ended.then(() => stream.destroy());
      stream.once('close', () => child.kill('SIGTERM'));
      stream.on('error', () => {});
      const client = DaemonConnection.over(stream, label, () => (reason !== null ? `host ${label}: ${reason}` : null));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([client.call(SERVER_STATUS, {}), late, ended.then((why) => Promise.reject(new Error(why)))]);
        return client;
      } catch (error) {
        client.dispose();
        // The stream closing says only that it closed: ssh's exit says why. A host that broke the protocol keeps its own code.
        const closed = error instanceof ClientError && error.code === 'connection_closed';
        const broke = error instanceof ClientError && (error.code === 'frame_too_large' || error.code === 'bad_reply');
        const why = closed ? await ended : (error as Error).message;
        throw new ClientError(broke ? (error as ClientError).code : 'daemon_unreachable', `cannot reach the daemon on host ${label}: ${why}`);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
