// Bytes per second of a large output through one pane (PTY + emulator + OSC capture), against a
// plain node-pty read of the same output in the same run. Run: node --import tsx bench/throughput.ts
// CORRAL_BENCH_MB sets the size (default 100).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node-pty';
import { spawnTerminalPane } from '../src/terminal/in-process-pane.ts';
import { writeMixedFile } from './lib/mixed-output.ts';

const megabytes = Number(process.env.CORRAL_BENCH_MB ?? 100);

const catCommand = (path: string) => ({ command: 'bash', args: ['-c', `stty raw -echo; cat '${path}'`] });

async function plainPty(path: string): Promise<number> {
  const start = performance.now();
  const { command, args } = catCommand(path);
  const pty = spawn(command, args, { cols: 120, rows: 32, env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string> });
  let received = 0;
  pty.onData((data) => (received += data.length));
  await new Promise((resolve) => pty.onExit(resolve));
  return (performance.now() - start) / 1000;
}

async function throughPane(path: string): Promise<number> {
  const start = performance.now();
  const { command, args } = catCommand(path);
  const pane = spawnTerminalPane({ command, args, cwd: tmpdir(), env: {}, cols: 120, rows: 32 });
  await new Promise((resolve) => pane.onExit(resolve));
  const seconds = (performance.now() - start) / 1000;
  pane.dispose();
  return seconds;
}

const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
try {
  const { path, bytes } = writeMixedFile(dir, megabytes);
  const plainSeconds = await plainPty(path);
  const paneSeconds = await throughPane(path);
  const plainBps = bytes / plainSeconds;
  const paneBps = bytes / paneSeconds;
  const result = {
    bench: 'throughput',
    bytes,
    plainPtySeconds: Number(plainSeconds.toFixed(3)),
    paneSeconds: Number(paneSeconds.toFixed(3)),
    plainPtyBytesPerSecond: Math.round(plainBps),
    paneBytesPerSecond: Math.round(paneBps),
    paneToPlainRatio: Number((paneBps / plainBps).toFixed(3)),
  };
  console.log(JSON.stringify(result));
  console.log(
    `${megabytes} MiB of mixed output: pane (PTY + emulator) ${(paneBps / 2 ** 20).toFixed(1)} MiB/s, ` +
      `plain PTY read ${(plainBps / 2 ** 20).toFixed(1)} MiB/s, ratio ${result.paneToPlainRatio}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
