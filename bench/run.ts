// Runs every benchmark in bench/ (the files at its top; lib/ and probes/ hold none) one after another,
// each in its own process so that one's memory and timers do not disturb the next; prints each one's
// output as it comes.
// Before each, it waits for the machine to settle: a bench's processes can outlive it by seconds
// (40 printers, a tmux server, 100 agents being killed), and a bench that measures itself first
// and its baseline second would pay for them alone.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** Busy and total jiffies of all CPUs so far (/proc/stat's first line). */
function cpuTimes(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3]! + (fields[4] ?? 0); // idle, iowait
  return { busy: total - idle, total };
}

/** Waits, up to 60 s, for a half second in which the machine's CPUs were at least 90% idle; returns seconds waited. */
function settle(): number {
  const start = Date.now();
  while (Date.now() - start < 60_000) {
    const before = cpuTimes();
    spawnSync('sleep', ['0.5']);
    const after = cpuTimes();
    const total = after.total - before.total;
    if (total > 0 && (after.busy - before.busy) / total < 0.1) break;
  }
  return (Date.now() - start) / 1000;
}

let failed = 0;
for (const file of benches) {
  const waited = settle();
  process.stdout.write(`\n== ${file} (after ${waited.toFixed(1)} s for the machine to settle)\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
