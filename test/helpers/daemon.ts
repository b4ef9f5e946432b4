import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORRAL_BIN = fileURLToPath(new URL('../../bin/corral', import.meta.url));

export interface DaemonProcess {
  readonly dir: string;
  readonly socket: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the daemon wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops the daemon if it still runs and removes the temporary folder. */
  dispose(): Promise<void>;
}

export function makeTempDir(prefix = 'corral-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function waitForExit(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/**
 * Runs the real `bin/corral daemon` and resolves once it listens, or rejects with its stderr.
 * Config and data folders point into the temporary folder, so a user's own overrides never leak in.
 */
export async function startDaemon(
  options: { dir?: string; socket?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; args?: string[] } = {},
): Promise<DaemonProcess> {
  const dir = options.dir ?? makeTempDir();
  const socket = options.socket ?? join(dir, 'corral.sock');
  const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), ...options.env };
  const child = spawn(process.execPath, [CORRAL_BIN, 'daemon', '--socket', socket, '--log-level', 'info', ...(options.args ?? [])], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not listen in time:\n${stderr}`)), options.timeoutMs ?? 15000);
    child.stderr!.on('data', (text: string) => {
      stderr += text;
      if (stderr.includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited with ${code} before listening:\n${stderr}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return waitForExit(child);
  };
  return {
    dir,
    socket,
    pid: child.pid!,
    child,
    stderr: () => stderr,
    stop,
    dispose: async () => {
      await stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
