// Daemon memory: VmRSS of a real `corral daemon` at start and with 50 idle panes, and the cost per pane,
// against a tmux server holding the same panes in the same run (the baseline; skipped without tmux).
// Run alone: node --import tsx bench/daemon-rss.ts [panes] [command]   (default: 50 sleep)
import { execFileSync } from 'node:child_process';
import { startDaemon } from '../harness/daemon.ts';
import { rssKiB } from '../harness/proc.ts';
import { RawClient } from '../harness/raw-client.ts';

const paneCount = Number(process.argv[2] ?? 50);
const command = process.argv[3] ?? 'sleep';
const args = command === 'sleep' ? ['1000'] : command === 'bash' ? ['--norc', '--noprofile'] : [];
const SETTLE_MS = 1500;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/** A tmux server with the same panes, at the same size: its RSS alone and with the panes. */
async function tmuxBaseline(): Promise<{ startKiB: number; loadedKiB: number } | null> {
  const socket = `corral-bench-${process.pid}`;
  const tmux = (...words: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  try {
    tmux('new-session', '-d', '-x', '120', '-y', '32', 'sleep 100000');
  } catch {
    return null;
  }
  try {
    const pid = Number(tmux('display-message', '-p', '#{pid}').trim());
    await settle();
    const startKiB = rssKiB(pid);
    for (let i = 1; i < paneCount; i += 1) tmux('new-window', '-d', [command, ...args].join(' '));
    await settle();
    return { startKiB, loadedKiB: rssKiB(pid) };
  } finally {
    execFileSync('tmux', ['-L', socket, 'kill-server']);
  }
}

const daemon = await startDaemon();
const client = await RawClient.connect(daemon.socket);
try {
  await client.call(0, 'server.status');
  await settle();
  const startKiB = rssKiB(daemon.pid);
  for (let i = 1; i <= paneCount; i += 1) {
    const reply = await client.call(i, 'pane.spawn', { command, args, cwd: daemon.dir });
    if (reply.error) throw new Error(reply.error.message);
  }
  await settle();
  const loadedKiB = rssKiB(daemon.pid);
  const tmux = await tmuxBaseline();
  const result = {
    bench: 'daemon-rss',
    panes: paneCount,
    command: [command, ...args].join(' '),
    rssStartMiB: +(startKiB / 1024).toFixed(1),
    rssWithPanesMiB: +(loadedKiB / 1024).toFixed(1),
    perPaneKiB: Math.round((loadedKiB - startKiB) / paneCount),
    tmuxStartMiB: tmux ? +(tmux.startKiB / 1024).toFixed(1) : null,
    tmuxWithPanesMiB: tmux ? +(tmux.loadedKiB / 1024).toFixed(1) : null,
    tmuxPerPaneKiB: tmux ? Math.round((tmux.loadedKiB - tmux.startKiB) / (paneCount - 1)) : null,
  };
  console.log(JSON.stringify(result));
  console.log(
    `daemon RSS ${result.rssStartMiB} MiB at start, ${result.rssWithPanesMiB} MiB with ${paneCount} idle panes ` +
      `(${result.command}): ${result.perPaneKiB} KiB per pane` +
      (tmux ? `; tmux ${result.tmuxStartMiB} MiB with one pane, ${result.tmuxWithPanesMiB} MiB with ${paneCount}: ${result.tmuxPerPaneKiB} KiB per pane (per-pane ratio ${(result.perPaneKiB / result.tmuxPerPaneKiB!).toFixed(1)}x)` : '; tmux not found, no baseline'),
  );
} finally {
  client.close();
  await daemon.dispose();
}
