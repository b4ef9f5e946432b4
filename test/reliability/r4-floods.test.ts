// R4, floods: `cat /dev/urandom`, `yes` and an OSC title flood in three panes at once. Another client's
// server.status and agent.list are all answered throughout (their p99 is reported, never asserted),
// the daemon's and the pty host's memory stay under a bound derived from the per-pane limits, and the
// floods end cleanly when killed.
//
// Memory is the live heap after a full collection (a heap snapshot collects first), of the daemon and
// of the pty host, taken while the floods run: what they hold. RSS also holds garbage not yet
// collected and pages the allocator keeps, which V8 sizes by its own heuristics (bench/probes/flood.ts:
// RSS plateaus while the live heap stays small); it is reported, not asserted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HIGH_WATERMARK } from '../../src/terminal/output-pump.ts';
import { RING_BYTES } from '../../src/terminal/pty-host/ring.ts';
import { SCROLLBACK_LINES } from '../../src/terminal/screen.ts';
import type { DaemonProcess } from '../../harness/daemon.ts';
import { heapCensus, startHeapDaemon } from '../../harness/heap.ts';
import { isAlive, rssKiB } from '../../harness/proc.ts';
import { LineClient, numberedCaller } from '../../harness/line-client.ts';
import { report, summary } from '../../harness/figures.ts';
import { sleep } from '../../harness/wait.ts';

const ROUNDS = 100;
const FLOODS: { name: string; command: string; args: string[] }[] = [
  { name: 'urandom', command: 'cat', args: ['/dev/urandom'] },
  { name: 'yes', command: 'yes', args: [] },
  // A new title every time, as fast as awk prints.
  { name: 'titles', command: 'awk', args: ['BEGIN { for (i = 0; ; i++) printf "\\033]0;title %d\\007", i }'] },
];

/**
 * What one flooding pane may hold at most, by the daemon's own limits: a full scrollback (about 2.5 KiB
 * per 120-column line in the emulator, bench/probes/screen-memory.ts), the unparsed output allowed before the
 * host is paused (UTF-16 units), and the host's ring. Beyond these the daemon must keep nothing per pane.
 */
const PER_PANE_BOUND_BYTES = (SCROLLBACK_LINES + 100) * 2560 + HIGH_WATERMARK * 2 + RING_BYTES;
/** Room for what is not per pane: code compiled meanwhile, socket buffers, the event ring filling. */
const SLACK_BYTES = 16 << 20;
const MEMORY_BOUND_BYTES = FLOODS.length * PER_PANE_BOUND_BYTES + SLACK_BYTES;
const mib = (bytes: number) => +(bytes / 1048576).toFixed(1);

describe('R4, floods', () => {
  let daemon: DaemonProcess;
  let heapDir: string;
  before(async () => {
    ({ daemon, heapDir } = await startHeapDaemon());
  });
  after(async () => {
    await daemon?.dispose();
  });

  it('answers server.status and agent.list throughout three floods, within a bounded memory', async () => {
    const client = await LineClient.connect(daemon.socket);
    // A bound, not a timing: under a loaded 2-core machine one answer can take seconds.
    const call = numberedCaller(client);
    try {
      await call('server.status', {});
      const host = daemon.hostPids().filter(isAlive);
      assert.equal(host.length, 1, 'one pty host');
      const liveHeap = async () => (await heapCensus(daemon.pid, heapDir)).liveBytes + (await heapCensus(host[0]!, heapDir)).liveBytes;
      const rss = () => rssKiB(daemon.pid) + rssKiB(host[0]!);
      /** ROUNDS of server.status and agent.list, timed (printed, never asserted); returns how many were answered. */
      const rounds = async (latencies: Record<'server.status' | 'agent.list', number[]>, each?: (round: number) => void) => {
        let answered = 0;
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const method of ['server.status', 'agent.list'] as const) {
            const start = performance.now();
            const reply = await call(method, {});
            latencies[method].push(performance.now() - start);
            if (reply.result) answered += 1;
          }
          each?.(round);
        }
        return answered;
      };
      // The baseline of the same run: the same calls before any flood.
      const quiet = { 'server.status': [] as number[], 'agent.list': [] as number[] };
      await rounds(quiet);
      const heapBefore = await liveHeap();
      const rssBefore = rss();
      const ids: string[] = [];
      for (const flood of FLOODS) {
        const reply = await call('pane.spawn', { command: flood.command, args: flood.args, name: flood.name, cwd: daemon.dir });
        assert.ok(reply.result, JSON.stringify(reply.error));
        ids.push(reply.result.id);
      }
      await sleep(2000); // every flood running at full speed
      const latencies = { 'server.status': [] as number[], 'agent.list': [] as number[] };
      let rssPeak = rss();
      const answered = await rounds(latencies, (round) => {
        if (round % 10 === 0) rssPeak = Math.max(rssPeak, rss());
      });
      // The live heap while the floods still run.
      const heapDuring = await liveHeap();
      const panes = (await call('pane.list', {})).result.panes as { id: string; state: string }[];
      const stillFlooding = panes.filter((p) => ids.includes(p.id) && p.state === 'running').length;
      for (const target of ids) {
        const killed = await call('pane.kill', { target });
        assert.ok(killed.result, JSON.stringify(killed.error));
      }
      const status = await call('server.status', {});
      report('R4 floods', {
        rounds: ROUNDS,
        answered,
        stillFlooding,
        serverStatus: summary(latencies['server.status']),
        agentList: summary(latencies['agent.list']),
        beforeFloods: { serverStatus: summary(quiet['server.status']), agentList: summary(quiet['agent.list']) },
        liveHeapMiB: [mib(heapBefore), mib(heapDuring)],
        liveHeapGrowthBoundMiB: mib(MEMORY_BOUND_BYTES),
        rssMiB: [+(rssBefore / 1024).toFixed(1), +(rssPeak / 1024).toFixed(1)],
      });
      assert.equal(answered, 2 * ROUNDS, 'every server.status and agent.list is answered');
      assert.equal(stillFlooding, FLOODS.length, 'the floods ran throughout');
      assert.ok(heapDuring - heapBefore < MEMORY_BOUND_BYTES, `live heap grew ${heapDuring - heapBefore} bytes, bound ${MEMORY_BOUND_BYTES}`);
      assert.equal(status.result?.paneCount, 0);
      assert.ok(isAlive(daemon.pid));
    } finally {
      client.destroy();
    }
  });
});
