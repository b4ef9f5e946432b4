// Not a benchmark: CPU of one screen (emulator plus history) parsing the mixed stream in-process, no
// daemon or pty host: the daemon's per-byte work on its own thread, repeatable under load.
// Run: node --import tsx bench/probes/history-cpu.ts [MiB, default 20] [repeats, default 3]
import { loadavg } from 'node:os';
import { Screen } from '../../src/terminal/screen.ts';
import { mixedBlock } from '../lib/mixed-output.ts';

const MB = Number(process.argv[2] ?? 20);
const REPEATS = Number(process.argv[3] ?? 3);
const block = mixedBlock();
const CHUNK = 64 * 1024;

async function once(): Promise<{ cpu: number; wall: number }> {
  const screen = new Screen({ cols: 120, rows: 32 });
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < MB; i++) {
    for (let at = 0; at < block.length; at += CHUNK) screen.write(block.subarray(at, at + CHUNK));
    await screen.flush();
  }
  const used = process.cpuUsage(cpu0);
  const wall = (performance.now() - wall0) / 1000;
  const lines = screen.scrollbackLength();
  screen.dispose();
  if (lines < 5000) throw new Error(`scrollback ${lines} lines`);
  return { cpu: (used.user + used.system) / 1e6, wall };
}

await once(); // warm-up
const runs: { cpu: number; wall: number }[] = [];
for (let r = 0; r < REPEATS; r++) runs.push(await once());
const cpus = runs.map((r) => +r.cpu.toFixed(3));
console.log(JSON.stringify({ MiB: MB, cpuSeconds: cpus, minMiBpsCpu: +(MB / Math.min(...cpus)).toFixed(1), load: +loadavg()[0]!.toFixed(1) }));
