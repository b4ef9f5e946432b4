import type { Disposable } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import type { ForegroundProcess } from './types.ts';
import { descendantsByChildren, readArgv, readForeground, readStat, readTpgid } from './procfs.ts';

/**
 * After output, when to look again: a program often takes the terminal just after the shell
 * echoed its command line, and then prints nothing for a while.
 */
export const FOREGROUND_SETTLE_MS = 150;
/**
 * Under continuous output from an unchanged group, checks back off to at most one per this interval:
 * re-reading /proc after every frame was a fifth of the daemon's CPU with 100 panes redrawing at
 * 10 Hz (bench/probes/profile-load.ts). Output after a quiet spell starts again at FOREGROUND_SETTLE_MS.
 */
export const FOREGROUND_BUSY_INTERVAL_MS = 1000;
/**
 * A member read with an empty command line was caught inside execve: the kernel gives the new comm
 * before the new command line and environment exist. Look again this soon, output or not, so that a
 * quiet program is not left without its argv and CORRAL_AGENT hint. The delay doubles per try, and
 * the tries stop after FOREGROUND_MID_EXEC_TRIES: a zombie member keeps an empty command line for good.
 */
export const FOREGROUND_MID_EXEC_RETRY_MS = 20;
export const FOREGROUND_MID_EXEC_TRIES = 5;

function sameGroup(a: ForegroundProcess | null, b: ForegroundProcess | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.pgid !== b.pgid || a.members.length !== b.members.length) return false;
  return a.members.every((m, i) => m.pid === b.members[i].pid && m.comm === b.members[i].comm && sameArgv(m.argv, b.members[i].argv));
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((arg, i) => arg === b[i]);
}

/**
 * The foreground process group of one pane, re-read from /proc only when output arrived and the
 * group may have changed: a new tpgid, or a cached member that exited or exec'd (new comm).
 */
export class ForegroundTracker implements Disposable {
  private current: ForegroundProcess | null = null;
  private readonly changed = new Emitter<ForegroundProcess | null>();
  private settleTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private lastCheckAt = -Infinity;
  private interval = FOREGROUND_SETTLE_MS;
  /** The pids below the shell at the last look, to notice a program that joined the group. */
  private lastBelow: string | null = null;
  /** Looks taken in a row that found a member inside execve. */
  private midExecTries = 0;
  private rereadNext = false;

  constructor(private readonly shellPid: number) {}

  /** The group as of now; cheap when nothing changed (one stat read per member). */
  get(): ForegroundProcess | null {
    if (!this.stopped) this.refresh();
    return this.current;
  }

  onChange(listener: (foreground: ForegroundProcess | null) => void): Disposable {
    return this.changed.event(listener);
  }

  /**
   * Output arrived: check now if no check is pending, and once more FOREGROUND_SETTLE_MS later.
   * While output goes on and nothing changes, the checks back off to one per FOREGROUND_BUSY_INTERVAL_MS.
   */
  noteOutput(): void {
    if (this.stopped || this.settleTimer !== null) return;
    const since = performance.now() - this.lastCheckAt;
    if (since >= this.interval) {
      // No output since the last check's interval ran out: a new burst, which may be a new program.
      this.interval = FOREGROUND_SETTLE_MS;
      this.check();
      this.arm(this.interval);
    } else {
      this.arm(this.interval - since);
    }
  }

  /** The pane exited: there is no foreground any more. */
  stop(): void {
    this.dispose();
    this.stopped = true;
    this.update(null);
  }

  dispose(): void {
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }

  /**
   * False when the group cannot have changed; otherwise what was read on the way (the children lists,
   * when read), for the group read to use rather than read again.
   */
  private mayHaveChanged(): false | { below?: number[] | null } {
    const cached = this.current;
    if (cached === null) return {};
    if (readTpgid(this.shellPid) !== cached.pgid) return {};
    // Caught inside execve at the last look: read again, whatever the cheap checks say.
    if (this.rereadNext) {
      this.rereadNext = false;
      return {};
    }
    // A program may join the same group without changing any member: a shell run without job control
    // forks the agent into its own group. Seen under load: the first read came before that fork.
    const below = descendantsByChildren(this.shellPid);
    const belowKey = below === null ? null : below.join(',');
    if (belowKey === null || belowKey !== this.lastBelow) {
      this.lastBelow = belowKey;
      return { below };
    }
    // An exec keeps the pid and may keep the comm (node running node): compare the command line too.
    // Seen under load: the first read landed between the PTY child's fork and its exec, when it was
    // still a copy of the daemon; comm alone never showed the program that replaced it.
    const execed = cached.members.some((member) => readStat(member.pid)?.comm !== member.comm || !sameArgv(readArgv(member.pid), member.argv));
    return execed ? { below } : false;
  }

  private arm(delay: number): void {
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      this.interval = this.check() ? FOREGROUND_SETTLE_MS : Math.min(2 * this.interval, FOREGROUND_BUSY_INTERVAL_MS);
    }, delay);
  }

  /** Refreshes and says whether the group changed. */
  private check(): boolean {
    this.lastCheckAt = performance.now();
    return this.refresh();
  }

  private refresh(): boolean {
    const seen = this.mayHaveChanged();
    return seen !== false && this.update(readForeground(this.shellPid, seen.below));
  }

  private update(next: ForegroundProcess | null): boolean {
    const changed = !sameGroup(this.current, next);
    this.current = next;
    if (changed) this.changed.fire(next);
    if (next !== null && next.members.some((member) => member.argv.length === 0)) this.lookAgainSoon();
    else this.midExecTries = 0;
    return changed;
  }

  private lookAgainSoon(): void {
    if (this.stopped || this.midExecTries >= FOREGROUND_MID_EXEC_TRIES) return;
    this.rereadNext = true;
    if (this.settleTimer !== null) return; // the pending look will read again
    this.arm(FOREGROUND_MID_EXEC_RETRY_MS * 2 ** this.midExecTries++);
  }
}
