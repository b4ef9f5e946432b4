// Ingest: bytes per second from programs printing a large mixed stream (plain text, SGR colours, wide
// and accented characters) until the daemon has parsed it all, through the real daemon and pty host.
// Baselines from the same run: 8 panes against a tmux server running the same 8 programs, and one pane
// against a plain node-pty read of the same stream (no emulator) and against tmux with one program (an
// emulator in C, for what an emulator costs).
// Run: node --import tsx bench/ingest.ts   (CORRAL_BENCH_MB per pane, default 20; CORRAL_BENCH_PANES, default 8)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { spawn as spawnPty } from 'node-pty';
import { join } from 'node:path';
import { startDaemon } from '../harness/daemon.ts';
import { LineClient } from '../harness/line-client.ts';
import { MiB, writeMixedFile } from './lib/mixed-output.ts';
import { sleep } from '../harness/wait.ts';
import { Tmux } from './lib/tmux.ts';

const MB = Number(process.env.CORRAL_BENCH_MB ?? 20);
const PANES = Number(process.env.CORRAL_BENCH_PANES ?? 8);

/** A raw terminal, so the line discipline neither echoes nor translates, then the file. */
const catScript = (path: string) => `stty raw -echo; cat '${path}'`;

/** Seconds from spawning `count` panes printing `path` to the last one exited (its output parsed). */
type Run = (path: string, count: number) => Promise<number>;

/** Starts a daemon with one client, gives `job` its runs (one after another), then stops the daemon. */
async function withDaemon<T>(dir: string, job: (run: Run) => Promise<T>): Promise<T> {
  const daemon = await startDaemon({ dir: mkdtempSync(join(dir, 'daemon-')) });
  const client = await LineClient.connect(daemon.socket);
  let id = 0;
  const call = async (method: string, params: unknown) => {
    client.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })}\n`);
    const answer = await client.nextAnswer(120_000);
    if (!answer || answer.error) throw new Error(`${method}: ${JSON.stringify(answer?.error ?? 'no answer')}`);
    return answer.result as any;
  };
  const run: Run = async (path, count) => {
    const start = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await call('pane.spawn', { command: 'bash', args: ['-c', catScript(path)], cwd: dir })).id);
    // A pane is exited once the host saw the end of its stream and the emulator parsed the tail. A
    // pane.list costs well under a millisecond, so a 5 ms poll adds at most 1% to a 0.5 s run.
    for (;;) {
      const panes = (await call('pane.list', {})).panes as { id: string; state: string }[];
      if (panes.filter((p) => ids.includes(p.id)).every((p) => p.state !== 'running')) break;
      await sleep(5);
    }
    const seconds = (performance.now() - start) / 1000;
    // Removed, so that the next run finds the daemon as a long-lived one with no pane left.
    for (const pane of ids) await call('pane.kill', { target: pane });
    return seconds;
  };
  try {
    return await job(run);
  } finally {
    client.destroy();
    await daemon.dispose();
  }
}

/** Seconds for a tmux server to take the same `count` programs' output (history-limit 1000). */
async function throughTmux(path: string, count: number): Promise<number | null> {
  if (!Tmux.available()) return null;
  const server = new Tmux();
  try {
    const start = performance.now();
    server.start(`sleep 1000`, 1000);
    server.run('set-option', '-g', 'remain-on-exit', 'on');
    for (let i = 0; i < count; i += 1) server.window(`bash -c "${catScript(path)}"`);
    // Each poll forks a tmux client, so it stays at 20 ms: polling faster would take CPU from the
    // server being measured. Over a run of several seconds, 20 ms is under 1%.
    for (;;) {
      const dead = server.run('list-panes', '-a', '-F', '#{pane_dead}').trim().split('\n').filter((d) => d === '1').length;
      if (dead >= count) break;
      await sleep(20);
    }
    return (performance.now() - start) / 1000;
  } finally {
    server.kill();
  }
}

/** Seconds for a plain node-pty reader in this process to read the same stream (no emulator). */
async function rawPty(path: string): Promise<number> {
  const start = performance.now();
  const pty = spawnPty('bash', ['-c', catScript(path)], { cols: 120, rows: 32, env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string> });
  let received = 0;
  pty.onData((data) => (received += data.length));
  await new Promise((resolve) => pty.onExit(resolve));
  return (performance.now() - start) / 1000;
}

const dir = mkdtempSync(join(tmpdir(), 'corral-bench-ingest-'));
try {
  const { path, bytes } = writeMixedFile(dir, MB);
  const loadBefore = loadavg()[0]!;
  const many = await withDaemon(dir, (run) => run(path, PANES));
  // One pane's figure is its second run on one daemon: a fresh daemon parses its first megabytes in
  // V8's interpreter (about 0.15 s more for 20 MiB here), which a long-lived daemon does not pay.
  const one = await withDaemon(dir, async (run) => (await run(path, 1), await run(path, 1)));
  const tmux = await throughTmux(path, PANES);
  const tmuxOne = await throughTmux(path, 1);
  const raw = await rawPty(path);
  const rate = (seconds: number, panes: number) => +((bytes * panes) / MiB / seconds).toFixed(1);
  const result = {
    bench: 'ingest',
    mibPerPane: MB,
    panes: PANES,
    corralMiBps: rate(many, PANES),
    tmuxMiBps: tmux === null ? null : rate(tmux, PANES),
    ratioToTmux: tmux === null ? null : +(tmux / many).toFixed(2),
    onePaneMiBps: rate(one, 1),
    rawPtyMiBps: rate(raw, 1),
    ratioToRaw: +(raw / one).toFixed(2),
    tmuxOnePaneMiBps: tmuxOne === null ? null : rate(tmuxOne, 1),
    tmuxOnePaneRatioToRaw: tmuxOne === null ? null : +(raw / tmuxOne).toFixed(2),
    loadAverage: [loadBefore, loadavg()[0]!].map((l) => +l.toFixed(1)),
  };
  console.log(JSON.stringify(result));
  console.log(
    `${PANES} panes x ${MB} MiB: ${result.corralMiBps} MiB/s` +
      (tmux === null ? ' (tmux not found, no baseline)' : `, tmux ${result.tmuxMiBps} MiB/s (ratio ${result.ratioToTmux}x, goal at least 1.0x)`) +
      `; one pane ${result.onePaneMiBps} MiB/s, raw node-pty read ${result.rawPtyMiBps} MiB/s (ratio ${result.ratioToRaw}, goal at least 0.5)` +
      (tmuxOne === null ? '' : `, tmux one pane ${result.tmuxOnePaneMiBps} MiB/s (${result.tmuxOnePaneRatioToRaw} of raw)`) +
      `; load average ${result.loadAverage.join(' to ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
