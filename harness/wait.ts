import { readFileSync } from 'node:fs';

/** Polls `check` until it returns a truthy value or the time runs out. For tests only. */
export async function waitFor<T>(check: () => T | Promise<T>, options: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A process that exists and is not a zombie (a reparented child may wait a while to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
