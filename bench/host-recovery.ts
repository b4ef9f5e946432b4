// The pty host: its memory per pane, and the time from a daemon's start to all panes recovered.
// 50 panes (by default) each print OUTPUT_KIB of text and then wait, so every ring holds something
// to replay. The daemon is killed with SIGKILL and started again; the time runs from spawning the
// new daemon to its `panes recovered` log line. Baseline in the same run: a daemon start with no
// panes (spawn to listening).
// Run alone: node --import tsx bench/host-recovery.ts [panes] [output KiB per pane]
import { rmSync } from 'node:fs';
import { makeTempDir, startDaemon, type DaemonProcess } from '../harness/daemon.ts';
import { rssKiB } from '../harness/proc.ts';
import { RawClient } from '../harness/raw-client.ts';

const paneCount = Number(process.argv[2] ?? 50);
const outputKiB = Number(process.argv[3] ?? 64);
const SETTLE_MS = 1500;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/** Starts a daemon and resolves with it and the ms from spawn to the log line `until`. */
async function timedStart(dir: string, until: string): Promise<{ daemon: DaemonProcess; ms: number }> {
  const started = performance.now();
  const daemon = await startDaemon({ dir, timeoutMs: 120_000 });
  while (!daemon.stderr().includes(`"msg":"${until}"`)) await new Promise((resolve) => setTimeout(resolve, 5));
  return { daemon, ms: performance.now() - started };
}

const baselineDir = makeTempDir();
const baseline = await timedStart(baselineDir, 'listening');
await baseline.daemon.dispose();
rmSync(baselineDir, { recursive: true, force: true });

const dir = makeTempDir();
const first = await startDaemon({ dir, timeoutMs: 120_000 });
let second: DaemonProcess | undefined;
try {
  const client = await RawClient.connect(first.socket);
  const [hostPid] = first.hostPids();
  await settle();
  const hostStartKiB = rssKiB(hostPid!);
  const script = `head -c ${outputKiB * 1024} /dev/urandom | base64 -w 100; echo READY; exec sleep 100000`;
  for (let i = 1; i <= paneCount; i += 1) {
    const reply = await client.call(i, 'pane.spawn', { command: 'sh', args: ['-c', script], cwd: dir, cols: 120, rows: 32 });
    if (reply.error) throw new Error(reply.error.message);
  }
  client.close();
  await settle();
  const hostLoadedKiB = rssKiB(hostPid!);
  first.child.kill('SIGKILL');
  await first.stop();
  const recovery = await timedStart(dir, 'panes recovered');
  second = recovery.daemon;
  const logged = /"panes":(\d+),"ms":(\d+),"msg":"panes recovered"/.exec(second.stderr());
  const result = {
    bench: 'host-recovery',
    panes: paneCount,
    outputKiBPerPane: outputKiB,
    hostRssStartMiB: +(hostStartKiB / 1024).toFixed(1),
    hostRssWithPanesMiB: +(hostLoadedKiB / 1024).toFixed(1),
    hostPerPaneKiB: Math.round((hostLoadedKiB - hostStartKiB) / paneCount),
    startToRecoveredMs: Math.round(recovery.ms),
    replayMs: logged ? Number(logged[2]) : null,
    baselineStartMs: Math.round(baseline.ms),
    ratio: +(recovery.ms / baseline.ms).toFixed(2),
  };
  console.log(JSON.stringify(result));
  console.log(
    `pty host RSS ${result.hostRssStartMiB} MiB at start, ${result.hostRssWithPanesMiB} MiB with ${paneCount} panes of ${outputKiB} KiB output: ` +
      `${result.hostPerPaneKiB} KiB per pane; daemon start to ${paneCount} panes recovered ${result.startToRecoveredMs} ms ` +
      `(replay ${result.replayMs} ms) against ${result.baselineStartMs} ms for a start with no panes (${result.ratio}x)`,
  );
} finally {
  if (second) await second.dispose();
  await first.dispose();
  rmSync(dir, { recursive: true, force: true });
}
