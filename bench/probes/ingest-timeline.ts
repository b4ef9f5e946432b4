// Not a benchmark: where one pane's ingest waits. The daemon runs in this process (its pty host in a
// process of its own, as in production) while one pane prints the mixed stream; every 10 ms it samples
// the bytes the daemon received and parsed, its event loop utilisation, the host's CPU, and the pause
// and resume messages sent to the host.
// Run: node --import tsx bench/probes/ingest-timeline.ts [MiB, default 20]
import { performance } from 'node:perf_hooks';
import { RemotePane } from '../../src/terminal/pty-host/remote-pane.ts';
import { HostClient } from '../../src/terminal/pty-host/host-client.ts';
import { PANE_LIST, PANE_SPAWN } from '../../src/protocol/methods/index.ts';
import { cpuSeconds } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';
import { writeMixedFile } from '../lib/mixed-output.ts';
import { startInProcessDaemon } from '../lib/in-process-daemon.ts';

const MB = Number(process.argv[2] ?? 20);
const counts = { received: 0, frames: 0, parsed: 0, pauses: 0, resumes: 0 };
const output = RemotePane.prototype.output;
RemotePane.prototype.output = function (this: RemotePane, data: Buffer) {
  counts.received += data.length;
  counts.frames += 1;
  return output.call(this, data);
};
const send = HostClient.prototype.send;
HostClient.prototype.send = function (this: HostClient, message: any) {
  if (message.t === 'pause') counts.pauses += 1;
  if (message.t === 'resume') counts.resumes += 1;
  return send.call(this, message);
};
const { dir, daemon, client, stop } = await startInProcessDaemon('ingest-timeline');
try {
  const { path } = writeMixedFile(dir, MB);
  const hostPid = daemon.host!.pid;
  await client.call(PANE_SPAWN, { command: 'true', args: [], cwd: dir });
  await sleep(500);
  const rows: string[] = [];
  let elu = performance.eventLoopUtilization();
  let hostCpu = cpuSeconds(hostPid);
  let last = { ...counts };
  const start = performance.now();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const d = performance.eventLoopUtilization(now, elu);
    elu = now;
    const h = cpuSeconds(hostPid);
    rows.push(`${(performance.now() - start).toFixed(0).padStart(5)} ms  in ${((counts.received - last.received) / 1024).toFixed(0).padStart(5)} KiB in ${counts.frames - last.frames} frames  daemon busy ${(d.utilization * 100).toFixed(0).padStart(3)}%  host cpu ${((h - hostCpu) * 1000).toFixed(0).padStart(3)} ms  pauses ${counts.pauses - last.pauses} resumes ${counts.resumes - last.resumes}`);
    hostCpu = h;
    last = { ...counts };
  }, 10);
  const pane = (await client.call(PANE_SPAWN, { command: 'bash', args: ['-c', `stty raw -echo; cat '${path}'`], cwd: dir })) as { id: string };
  while ((await client.call(PANE_LIST, {})).panes.find((p: { id: string }) => p.id === pane.id)!.state === 'running') await sleep(5);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(timer);
  console.log(rows.join('\n'));
  console.log(JSON.stringify({ MiB: MB, seconds: +seconds.toFixed(3), MiBps: +(MB / seconds).toFixed(1), ...counts }));
} finally {
  await stop();
}
