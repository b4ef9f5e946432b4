// The pty host's own entry point: a small long-lived process owning the PTYs, so that the daemon
// can stop, restart or crash without ending the agents. It imports only the terminal layer's PTY
// adapter and kill policy, never the daemon, the emulator or detection, so it rarely needs an upgrade.
import { chmodSync } from 'node:fs';
import { HostServer } from './host-server.ts';
import { isAlive } from '../procfs.ts';

/** Without any daemon ever attaching, the host gives up after this long. */
const FIRST_ATTACH_TIMEOUT_MS = 30_000;
/** How often the host looks whether the process named by CORRAL_PTY_HOST_WATCH_PID is still alive. */
const WATCH_INTERVAL_MS = 500;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function log(message: string): void {
  process.stderr.write(`${new Date().toISOString()} pty-host[${process.pid}] ${message}\n`);
}

const socketPath = argument('--socket');
const lockPath = argument('--lock');
if (socketPath === undefined || lockPath === undefined) {
  log('usage: pty-host --socket PATH --lock DAEMON_LOCK_PATH');
  process.exit(2);
}
process.title = 'corral-pty-host';
let attachedOnce = false;
const server = new HostServer({
  socketPath,
  lockPath,
  idle: () => {
    log('no daemon and no running pane: exiting');
    exit(0);
  },
  log: (message) => {
    if (message.startsWith('daemon attached')) attachedOnce = true;
    log(message);
  },
});

function exit(code: number): void {
  server.close();
  process.exit(code);
}

async function endAll(why: string): Promise<void> {
  log(`${why}: ending every pane`);
  await server.shutdown();
  exit(0);
}

// The socket is born 0600: no window in which another user could connect. The umask is put back
// before any pane starts, so agents create files as the user expects.
const umask = process.umask(0o077);
try {
  await server.listen();
  chmodSync(socketPath, 0o600);
  process.umask(umask);
} catch (error) {
  log(`cannot listen on ${socketPath}: ${(error as Error).message}`);
  process.exit(1);
}
log(`listening on ${socketPath}`);
process.on('SIGTERM', () => void endAll('SIGTERM'));
process.on('SIGINT', () => void endAll('SIGINT'));
process.on('SIGHUP', () => undefined); // the daemon's terminal closing is no reason to end the agents
process.on('uncaughtException', (error) => log(`uncaught exception: ${error.stack ?? error.message}`));
setTimeout(() => {
  if (!attachedOnce) void endAll('no daemon attached in time');
}, FIRST_ATTACH_TIMEOUT_MS).unref();
// Tests tie a host to their own process, so that no host outlives the test that started it.
const watched = Number(process.env.CORRAL_PTY_HOST_WATCH_PID ?? 0);
delete process.env.CORRAL_PTY_HOST_WATCH_PID; // panes inherit the host's environment
if (watched > 0) {
  setInterval(() => {
    if (!isAlive(watched)) void endAll(`watched process ${watched} is gone`);
  }, WATCH_INTERVAL_MS);
}
