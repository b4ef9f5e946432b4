import { spawn } from 'node:child_process';
import { closeSync, lstatSync, openSync, unlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lockFilePath } from './daemon-lock.ts';
import { HostClient, HostError, type HelloReply } from './host-client.ts';

/** The host's private socket, beside the daemon's. */
export function hostSocketPath(socketPath: string): string {
  return `${socketPath}.host`;
}

/** How long a freshly started host may take to listen. */
export const HOST_START_TIMEOUT_MS = 10_000;

/**
 * The host's entry point: the bundled file beside the CLI bundle (dist/terminal/pty-host.mjs), or
 * the TypeScript source run through tsx when the daemon itself runs from source.
 */
function hostCommand(): string[] {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.mjs')) return [fileURLToPath(new URL('../terminal/pty-host.mjs', import.meta.url))];
  return ['--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))];
}

export interface AttachedHost {
  client: HostClient;
  hello: HelloReply;
  /** Whether this call started the host (no host was running). */
  started: boolean;
}

/**
 * Attaches to the pty host beside `socketPath`, starting one when none answers. The host runs in
 * its own session, so signals meant for the daemon's terminal or process group never reach it.
 * Call while holding the daemon's lock: two daemons must never race to start hosts, and the host
 * serves only the lock's holder.
 */
export async function attachHost(socketPath: string, env: NodeJS.ProcessEnv = process.env): Promise<AttachedHost> {
  const path = hostSocketPath(socketPath);
  try {
    return { ...(await HostClient.connect(path)), started: false };
  } catch (error) {
    if (!(error instanceof HostError) || error.code !== 'host_unreachable') throw error;
  }
  removeStale(path);
  const log = openSync(`${path}.log`, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [...hostCommand(), '--socket', path, '--lock', lockFilePath(socketPath)], { detached: true, stdio: ['ignore', 'ignore', log], env });
    child.unref();
  } finally {
    closeSync(log);
  }
  const deadline = Date.now() + HOST_START_TIMEOUT_MS;
  for (;;) {
    try {
      return { ...(await HostClient.connect(path)), started: true };
    } catch (error) {
      if (!(error instanceof HostError) || error.code !== 'host_unreachable' || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function removeStale(path: string): void {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // nothing there
  }
}
