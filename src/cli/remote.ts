import { spawn } from 'node:child_process';
import { configuredHost, sshArgvFor, type HostSpec } from '../client/index.ts';
import { defaultConfigPath } from '../protocol/config-path.ts';
import { EXIT } from './exit-codes.ts';

/** Where a command runs: here, or on `host` through ssh (`--host user@box` or $CORRAL_HOST). */
export interface RemoteRun {
  host: string;
  /** The command line without `--host`, run there as it was given here. */
  args: string[];
}

/** Finds `--host H` / `--host=H` before any `--`, else $CORRAL_HOST; null to run here. */
export function remoteRun(argv: string[], env: NodeJS.ProcessEnv = process.env): RemoteRun | null {
  const args: string[] = [];
  let host: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === '--') {
      args.push(...argv.slice(i));
      break;
    }
    if (word === '--host') host = argv[++i];
    else if (word.startsWith('--host=')) host = word.slice('--host='.length);
    else args.push(word);
  }
  host ??= env.CORRAL_HOST;
  return host ? { host, args } : null;
}

/**
 * The ssh command line, a terminal only when this one has one (attach and top need it; pipes must stay
 * byte-exact). A host config.toml names is its whole `[[hosts]]` entry (ssh, ssh_options, command,
 * socket; a `--socket` of the command line comes after and wins); any other is an ssh destination, with
 * `$CORRAL_REMOTE_COMMAND` (default `corral`) run there. Either way through $CORRAL_SSH (default `ssh`).
 */
export function sshArgv(run: RemoteRun, env: NodeJS.ProcessEnv, interactive: boolean): string[] {
  const flags = [interactive ? '-t' : '-T', ...(interactive ? [] : ['-o', 'BatchMode=yes'])];
  const entry = configuredHost(run.host, defaultConfigPath(env));
  if (entry) return sshArgvFor(entry, run.args, flags, env);
  const destination: HostSpec = { name: run.host, ssh: run.host, command: [], sshOptions: [], socket: null };
  return sshArgvFor(destination, run.args, flags, env, env.CORRAL_REMOTE_COMMAND ?? 'corral');
}

/**
 * Runs the command on the host and resolves to its exit code, so waits (0, 3, 124) and event streams
 * behave as they do here. ssh's own failure (255: no route, refused key) becomes 4, "daemon unreachable".
 */
export function runRemote(run: RemoteRun, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const [command, ...args] = sshArgv(run, env, interactive);
  return new Promise((resolve) => {
    const child = spawn(command!, args, { stdio: 'inherit' });
    child.once('error', (error) => {
      process.stderr.write(`corral: cannot run ${command} to reach ${run.host} (${error.message})\n`);
      resolve(EXIT.unreachable);
    });
    child.once('exit', (code, signal) => {
      if (code === 255) {
        process.stderr.write(`corral: ssh could not reach ${run.host} or run corral there (exit 255; see ssh's message above)\n`);
        resolve(EXIT.unreachable);
      } else resolve(code ?? (signal === 'SIGINT' ? 130 : 1));
    });
  });
}
