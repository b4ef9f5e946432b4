// Finds and ends, by pid, the processes one live run started: every process whose environment names
// the run's throwaway HOME (the daemon, the CLI in its pane and anything either left behind).
import { readFileSync, readdirSync } from 'node:fs';

export const KILL_GRACE_MS = 2000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function processesUsing(home: string): number[] {
  const marker = `HOME=${home}`;
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      if (pid === process.pid) return false;
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    });
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/** SIGTERM, then SIGKILL after KILL_GRACE_MS to whatever still runs. */
export async function endAll(pids: number[]): Promise<void> {
  for (const pid of pids) {
    try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
  }
  await sleep(KILL_GRACE_MS);
  for (const pid of pids) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}
