// R2, backpressure: a client that pipelines 100,000 requests and never reads its replies, an event
// subscriber that never reads and a client attached to a streaming pane that never reads, all at once,
// while panes stream. The daemon stops reading the pipeliner, its memory stays under a bound named
// from its limits, and the other clients lose nothing: a reading subscriber gets every event cursor in
// order, and a caller gets every answer.
//
// Memory is the live heap after a full collection (a heap snapshot collects first), of the daemon and
// of the pty host: what they hold. RSS also holds garbage not yet collected and pages the allocator
// keeps, which V8 sizes by its own heuristics (bench/probes/flood.ts: RSS plateaus while the live heap
// stays small); it is reported, not asserted.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BEHIND_BYTES } from '../../src/daemon/attach/attachment.ts';
import { MAX_IN_FLIGHT } from '../../src/daemon/rpc/connection.ts';
import { DEFAULT_SUBSCRIBER_BUFFER_BYTES } from '../../src/daemon/events/subscriber.ts';
import { HIGH_WATERMARK } from '../../src/terminal/output-pump.ts';
import { RING_BYTES } from '../../src/terminal/pty-host/ring.ts';
import { SCROLLBACK_LINES } from '../../src/terminal/screen.ts';
import type { DaemonProcess } from '../../harness/daemon.ts';
import { heapCensus, startHeapDaemon } from '../../harness/heap.ts';
import { isAlive, rssKiB } from '../../harness/proc.ts';
import { LineClient, numberedCaller } from '../../harness/line-client.ts';
import { report } from '../../harness/figures.ts';
import { sleep } from '../../harness/wait.ts';

const PIPELINED = 100_000;
/** The pipeliner writes its requests in pieces of this many, so that it can count what the kernel took. */
const PIECE = 1000;
const STREAMING_PANES = 3;
const CHURN = 50; // short panes started and removed meanwhile: events for the subscribers

/**
 * The growth of the live heap allowed while the three clients do not read, by the daemon's limits:
 * - per streaming pane, a full scrollback (about 2.5 KiB per 120-column line in the emulator,
 *   bench/probes/screen-memory.ts), the unparsed output allowed before the host is paused (UTF-16) and the
 *   host's ring;
 * - for the silent subscriber, its buffer limit; for the silent attached client, the backlog after
 *   which it is behind; for the pipeliner, see pipelinerBytes in the test;
 * - 16 MiB for what is not per client or pane (code compiled meanwhile, the event ring filling).
 */
const PER_STREAM_BYTES = (SCROLLBACK_LINES + 100) * 2560 + HIGH_WATERMARK * 2 + RING_BYTES;
const SILENT_CLIENTS_BYTES = DEFAULT_SUBSCRIBER_BUFFER_BYTES + BEHIND_BYTES;
const MEMORY_BOUND_BYTES = STREAMING_PANES * PER_STREAM_BYTES + SILENT_CLIENTS_BYTES + (16 << 20);
/** The most a socket read hands the daemon at once (libuv reads 64 KiB at a time). */
const READ_BYTES = 64 * 1024;

const mib = (bytes: number) => +(bytes / 1048576).toFixed(1);

/** A raw socket that writes and never reads: its receive buffer fills and the daemon's writes back up. */
function silentClient(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

describe('R2, backpressure', () => {
  let daemon: DaemonProcess;
  let heapDir: string;
  before(async () => {
    ({ daemon, heapDir } = await startHeapDaemon());
  });
  after(async () => {
    await daemon?.dispose();
  });

  it('bounds memory for clients that never read, and the others lose nothing', async () => {
    const caller = await LineClient.connect(daemon.socket);
    const call = numberedCaller(caller);
    // The reading subscriber counts the cursors it gets; a gap would be a lost event.
    const reader = connect(daemon.socket);
    await new Promise((resolve) => reader.once('connect', resolve));
    const cursors: number[] = [];
    const removed = new Set<string>();
    let readerBuffer = '';
    let readerDropped = false;
    reader.setEncoding('utf8').on('data', (text: string) => {
      readerBuffer += text;
      let nl: number;
      while ((nl = readerBuffer.indexOf('\n')) !== -1) {
        const message = JSON.parse(readerBuffer.slice(0, nl));
        readerBuffer = readerBuffer.slice(nl + 1);
        if (message.method === 'event') cursors.push(message.params.cursor);
        if (message.method === 'event' && message.params.kind === 'pane.removed') removed.add(message.params.pane.id);
        if (message.method === 'events.dropped') readerDropped = true;
      }
    });
    reader.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'events.subscribe', params: {} })}\n`);
    const silents: Socket[] = [];
    try {
      const host = daemon.hostPids().filter(isAlive);
      assert.equal(host.length, 1, 'one pty host');
      const liveHeap = async () => (await heapCensus(daemon.pid, heapDir)).liveBytes + (await heapCensus(host[0]!, heapDir)).liveBytes;
      const rss = () => rssKiB(daemon.pid) + rssKiB(host[0]!);
      const statusReplyBytes = JSON.stringify(await call('server.status', {})).length + 1;
      const heapBefore = await liveHeap();
      const rssBefore = rss();
      const streams: string[] = [];
      for (let i = 0; i < STREAMING_PANES; i += 1) {
        const reply = await call('pane.spawn', { command: 'yes', args: [`stream ${i}`], cwd: daemon.dir });
        assert.ok(reply.result, JSON.stringify(reply.error));
        streams.push(reply.result.id);
      }

      // The subscriber and the attached client that never read.
      const subscriber = await silentClient(daemon.socket);
      subscriber.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'events.subscribe', params: {} })}\n`);
      const attached = await silentClient(daemon.socket);
      attached.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pane.attach', params: { target: streams[0] } })}\n`);
      // The pipeliner: 100,000 requests written as fast as the socket takes them, never a reply read.
      // Each piece's callback runs once the kernel has taken the whole piece: the count of those is
      // how much the daemon (and the kernel's buffers between) accepted.
      const pipeliner = await silentClient(daemon.socket);
      silents.push(subscriber, attached, pipeliner);
      const line = (n: number) => `${JSON.stringify({ jsonrpc: '2.0', id: n, method: 'server.status', params: {} })}\n`;
      let piecesTaken = 0;
      for (let first = 1; first <= PIPELINED; first += PIECE) {
        const piece = Array.from({ length: PIECE }, (_, i) => line(first + i)).join('');
        pipeliner.write(piece, () => (piecesTaken += 1));
      }

      // Meanwhile: events from short panes, and answers for the reading caller.
      let answered = 0;
      let lastChurned = '';
      let rssPeak = rss();
      for (let i = 0; i < CHURN; i += 1) {
        const spawned = await call('pane.spawn', { command: 'true', args: [], cwd: daemon.dir });
        if (spawned.result) {
          lastChurned = spawned.result.id;
          const killed = await call('pane.kill', { target: spawned.result.id });
          if (killed.result) answered += 1;
        }
        if ((await call('server.status', {})).result) answered += 1;
        rssPeak = Math.max(rssPeak, rss());
      }
      // The live heap while every silent client is still connected and the streams still run.
      const heapDuring = await liveHeap();
      const taken = piecesTaken;
      const status = await call('server.status', {});

      // Every event the daemon published since the reader subscribed reaches it, in order, none missing:
      // up to the removal of the last short pane (a bound, not a timing).
      for (let i = 0; i < 1200 && !removed.has(lastChurned); i += 1) await sleep(50);
      const gaps = cursors.filter((c, i) => i > 0 && c !== cursors[i - 1]! + 1).length;
      // What the daemon may hold for the pipeliner: one read's worth of lines waiting, and the replies
      // of those lines and of MAX_IN_FLIGHT more (UTF-16 at worst).
      const pipelinerBytes = (READ_BYTES + (READ_BYTES / line(PIPELINED).length + MAX_IN_FLIGHT) * statusReplyBytes) * 2;
      const bound = MEMORY_BOUND_BYTES + pipelinerBytes;
      report('R2 backpressure', {
        pipelinedRequests: PIPELINED,
        pipelinedTakenByKernel: taken * PIECE,
        answered,
        readerEvents: cursors.length,
        readerGaps: gaps,
        readerDropped,
        connections: status.result?.connections,
        liveHeapMiB: [mib(heapBefore), mib(heapDuring)],
        liveHeapGrowthBoundMiB: mib(bound),
        rssMiB: [+(rssBefore / 1024).toFixed(1), +(rssPeak / 1024).toFixed(1)],
      });
      assert.equal(answered, 2 * CHURN, 'the reading caller got every answer');
      assert.ok(taken * PIECE < PIPELINED / 2, `the daemon stopped reading the pipeliner: the kernel took ${taken * PIECE} of ${PIPELINED} requests`);
      // Each short pane is created, exits and is removed: three events each, at least.
      assert.ok(cursors.length >= 3 * CHURN, `the reading subscriber got ${cursors.length} events`);
      assert.equal(gaps, 0, 'the reading subscriber lost no event');
      assert.equal(readerDropped, false);
      assert.ok(removed.has(lastChurned), 'the reading subscriber saw the last event');
      assert.ok(heapDuring - heapBefore < bound, `live heap grew ${heapDuring - heapBefore} bytes, bound ${bound}`);
      assert.ok(isAlive(daemon.pid));
    } finally {
      for (const socket of silents) socket.destroy();
      reader.destroy();
      caller.destroy();
    }
  });
});
