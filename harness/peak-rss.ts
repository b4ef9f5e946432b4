// The peak resident memory of a CLI run, as the kernel counts it (VmHWM), for the memory bounds the
// tests hold: the figure is taken by the process itself as it exits (harness/peak-rss-hook.mjs).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORRAL_BIN, makeTempDir } from './daemon.ts';

const HOOK = fileURLToPath(new URL('./peak-rss-hook.mjs', import.meta.url));

/** VmHWM of a live process, in KiB. */
export function peakKiB(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The process's peak resident memory in KiB; read from /proc before the kill when it ran out of time. */
  peakKiB: number;
  timedOut: boolean;
}

/** Runs the real CLI and reports its peak memory; past `timeoutMs` (a hang guard) it is killed, its peak read first. */
export function runCliMeasured(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<MeasuredRun> {
  const file = join(makeTempDir('corral-peak-'), 'peak');
  const child = spawn(process.execPath, ['--import', HOOK, CORRAL_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, CORRAL_PEAK_RSS_FILE: file } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let killedAt = NaN;
  const timer = setTimeout(() => {
    try {
      killedAt = peakKiB(child.pid!);
    } catch {
      // gone meanwhile: its hook wrote the figure
    }
    child.kill('SIGKILL');
  }, timeoutMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      let written = NaN;
      try {
        written = Number(readFileSync(file, 'utf8').split('\n').find((line) => line.startsWith(`${child.pid} `))?.split(' ')[1]);
      } catch {
        // killed before it could write
      }
      resolve({ code, stdout, stderr, peakKiB: Number.isNaN(written) ? killedAt : written, timedOut: !Number.isNaN(killedAt) });
    });
  });
}
