import { spawn, type ChildProcess } from 'node:child_process';
import { sealDescriptors } from '../../terminal/native.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { Logger } from '../logger.ts';

/** After SIGTERM at the timeout (or at daemon stop), a command that lingers this long gets SIGKILL. */
const NOTIFY_KILL_GRACE_MS = 1000;

/**
 * Runs notification commands without a shell, in their own process group (detached from every pane),
 * with output discarded and a timeout. Ending follows one policy: SIGTERM to the group, then SIGKILL.
 */
export class CommandRunner implements Disposable {
  private readonly running = new Set<ChildProcess>();

  constructor(
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  get active(): number {
    return this.running.size;
  }

  run(argv: readonly string[]): void {
    const [program, ...args] = argv;
    let child: ChildProcess;
    try {
      sealDescriptors();
      child = spawn(program!, args, { detached: true, stdio: 'ignore', shell: false });
    } catch (error) {
      this.log.warn({ err: error, program }, 'notify command could not start');
      return;
    }
    this.running.add(child);
    const timer = setTimeout(() => {
      this.log.warn({ program, timeoutMs: this.timeoutMs }, 'notify command timed out; ending it');
      this.end(child);
    }, this.timeoutMs);
    timer.unref();
    child.once('error', (error) => this.log.warn({ err: error, program }, 'notify command failed to start'));
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      this.running.delete(child);
      if (code !== 0) this.log.warn({ program, code, signal }, 'notify command failed');
    });
  }

  /** Ends every command still running, so the daemon leaves none behind. */
  dispose(): void {
    for (const child of this.running) this.end(child);
  }

  private end(child: ChildProcess): void {
    const group = child.pid;
    if (group === undefined || child.exitCode !== null || child.signalCode !== null) return;
    signalGroup(group, 'SIGTERM');
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) signalGroup(group, 'SIGKILL');
    }, NOTIFY_KILL_GRACE_MS).unref();
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}
