import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORRAL_BIN = fileURLToPath(new URL('../bin/corral', import.meta.url));

export interface DaemonProcess {
  readonly dir: string;
  readonly socket: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the daemon wrote to stderr so far. */
  stderr(): string;
  /** Everything written to stdout so far: node's traces, when nodeArgs asked for them. */
  stdout(): string;
  /** SIGTERM, then wait for the exit. The panes keep running in the pty host. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Pids of the pty hosts this daemon attached to, from its log. */
  hostPids(): number[];
  /** Stops the daemon if it still runs, ends its pty host with every pane, and removes the temporary folder. */
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

/** Pids of the pty hosts a daemon's log says it attached to. */
export function hostPidsIn(log: string): number[] {
  return [...new Set([...log.matchAll(/"hostPid":(\d+)/g)].map((match) => Number(match[1])))];
}

/** SIGTERM to a pty host (it ends its panes by the kill policy) and waits until it is gone. */
export async function endHost(pid: number, timeoutMs = 10_000): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  if (isRunning(pid)) process.kill(pid, 'SIGKILL');
}

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Environment every test daemon gets: its folders in the temporary folder, its pty host tied to this test process. */
export function testEnv(dir: string): NodeJS.ProcessEnv {
  return {
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_STATE_HOME: join(dir, 'state'),
    CORRAL_PTY_HOST_WATCH_PID: String(process.pid),
  };
}

/**
 * Runs the real `bin/corral daemon` (with `nodeArgs` given to node before it) and resolves once it
 * listens, or rejects with its stderr.
 * Config, data and state folders point into the temporary folder, so a user's own overrides never
 * leak in; the pty host ends when this test process does, so no host outlives a test.
 */
export async function startDaemon(
  options: { dir?: string; socket?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; args?: string[]; nodeArgs?: string[] } = {},
): Promise<DaemonProcess> {
  const dir = options.dir ?? makeTempDir();
  const socket = options.socket ?? join(dir, 'corral.sock');
  const env = { ...process.env, ...testEnv(dir), ...options.env };
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CORRAL_BIN, 'daemon', '--socket', socket, '--log-level', 'info', ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  // The daemon writes nothing to stdout itself; node's own traces (nodeArgs such as --trace-gc) do.
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (text: string) => (stdout += text));
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    // A daemon that does not listen in time is killed with its host, so the test process can end.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      for (const pid of hostPidsIn(stderr)) void endHost(pid);
      reject(new Error(`daemon did not listen in time:\n${stderr}`));
    }, options.timeoutMs ?? 30000);
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
    stdout: () => stdout,
    stop,
    hostPids: () => hostPidsIn(stderr),
    dispose: async () => {
      await stop();
      await Promise.all(hostPidsIn(stderr).map((pid) => endHost(pid)));
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
