// corral web toward a page that stops reading (docs/web.md, "Bounds"): a pane floods, one page's
// socket is paused, another page reads. The server's live heap stays bounded, the reading page and the
// daemon go on, and the stalled page is repainted once it reads again. A page asking faster than the
// daemon answers is read no further, and a page that keeps asking without reading is closed.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { heapCensus, heapSnapshotOptions } from '../../harness/heap.ts';
import { waitFor } from '../../harness/wait.ts';
import { pageSocket, sessionCookieOf, startWeb, type PageClient, type WebProcess } from '../../harness/web.ts';
import { FELL_BEHIND_CLOSE_CODE, SOCKET_MAX_BYTES } from '../../src/web/page-outbox.ts';
import { MAX_PAGE_IN_FLIGHT } from '../../src/web/page-socket.ts';
import { useDaemon } from '../helpers/session.ts';

const MiB = 1024 * 1024;
/** What the reading page gets while the other is stalled: many times what the server may hold for it. */
const PAST_THE_STALL_BYTES = 16 * SOCKET_MAX_BYTES;
/**
 * How much the server's live heap may grow meanwhile: the stalled page's queue (at most
 * SOCKET_MAX_BYTES), the reading page's, and the messages in flight; without a bound it would hold
 * all of PAST_THE_STALL_BYTES.
 */
const HEAP_GROWTH_BOUND = 2 * SOCKET_MAX_BYTES;

/** Requests of 64 KiB a page sends while the daemon answers none: 32 MiB, held in the server without a bound. */
const ASKED = 512;

/** The socket under a page's WebSocket: pausing it stops reading, as a stalled phone does. */
const socketOf = (page: PageClient) => (page.ws as unknown as { _socket: Socket })._socket;

describe('corral web: flow control toward a page that stops reading', () => {
  const session = useDaemon();
  let web: WebProcess;
  let heapDir: string;
  let cookie: string;

  before(async () => {
    heapDir = join(session.daemon.dir, 'web-heap');
    mkdirSync(heapDir);
    web = await startWeb(session.daemon, [], heapSnapshotOptions(heapDir));
    cookie = await sessionCookieOf(web);
  });

  after(async () => {
    await web?.dispose();
  });

  it('a stalled page never grows the server past its bound nor slows the daemon or another page, and is repainted once it reads', async (t) => {
    const { id } = await session.call('pane.spawn', { command: 'seq', args: ['-f', 'flood %09.0f', '1', '999999999'], name: 'web-flood' });
    const reader = await pageSocket(web, { origin: web.origin, cookie });
    const stalled = await pageSocket(web, { origin: web.origin, cookie });
    try {
      let received = 0;
      reader.ws.on('message', (data: Buffer) => (received += data.length));
      assert.ok((await reader.call('terminal.open', { target: id })).result);
      assert.ok((await stalled.call('terminal.open', { target: id })).result);
      await waitFor(() => stalled.notifications.some((n) => n.method === 'terminal.output' && n.params.redraw), { what: "the stalled page's first redraw" });
      const baseline = (await heapCensus(web.child.pid!, heapDir)).liveBytes;

      socketOf(stalled).pause();
      const before = received;
      await waitFor(
        () => {
          reader.notifications.length = 0; // counted, not kept
          return received - before > PAST_THE_STALL_BYTES;
        },
        { timeoutMs: 180_000, what: `${PAST_THE_STALL_BYTES / MiB} MiB to the reading page while the other is stalled` },
      );
      const during = (await heapCensus(web.child.pid!, heapDir)).liveBytes;
      t.diagnostic(`live heap ${(baseline / MiB).toFixed(1)} MiB before the stall, ${(during / MiB).toFixed(1)} MiB after ${((received - before) / MiB).toFixed(0)} MiB went to the reading page`);
      assert.ok(during - baseline < HEAP_GROWTH_BOUND, `the server's live heap grew ${(during - baseline) / MiB} MiB, bound ${HEAP_GROWTH_BOUND / MiB} MiB`);
      assert.ok((await session.call('server.status', {})).pid, 'the daemon answers');
      assert.ok((await reader.call('board.get')).result, 'the server answers the reading page');

      socketOf(stalled).resume();
      // Once its queue drained: the whole board again, then its terminal repainted.
      const repainted = () => {
        const reset = stalled.notifications.findIndex((n) => n.method === 'board.reset');
        return reset !== -1 && stalled.notifications.slice(reset).some((n) => n.method === 'terminal.output' && n.params.redraw && n.params.id === id);
      };
      await waitFor(repainted, { timeoutMs: 60_000, what: 'the whole board and a redraw for the page that read again' });
    } finally {
      reader.close();
      stalled.close();
      await session.call('pane.kill', { target: id });
    }
  });

  it('a page asking faster than the daemon answers is read no further than its requests in flight allow', async (t) => {
    const page = await pageSocket(web, { origin: web.origin, cookie });
    const { id: pane } = await session.call('pane.spawn', { command: 'cat', name: 'asked-fast' });
    const order: unknown[] = [];
    page.ws.on('message', (data: Buffer) => order.push(JSON.parse(String(data)).id));
    const baseline = (await heapCensus(web.child.pid!, heapDir)).liveBytes;
    // The daemon answers nothing while stopped: each request waits in the server for its pane.get.
    process.kill(session.daemon.pid, 'SIGSTOP');
    try {
      const data = 'x'.repeat(64 * 1024);
      for (let n = 1; n <= ASKED; n++) page.ws.send(JSON.stringify({ jsonrpc: '2.0', id: n, method: 'terminal.input', params: { target: pane, data } }));
      // Answered by the server itself, once it reads it.
      page.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'board', method: 'board.get', params: {} }));
      const held = (await heapCensus(web.child.pid!, heapDir)).liveBytes;
      t.diagnostic(`live heap ${(baseline / MiB).toFixed(1)} MiB before, ${(held / MiB).toFixed(1)} MiB with ${(ASKED * data.length) / MiB} MiB of requests sent`);
      assert.ok(held - baseline < HEAP_GROWTH_BOUND, `the server's live heap grew ${(held - baseline) / MiB} MiB for ${(ASKED * data.length) / MiB} MiB asked, bound ${HEAP_GROWTH_BOUND / MiB} MiB`);
    } finally {
      process.kill(session.daemon.pid, 'SIGCONT');
    }
    try {
      await waitFor(() => order.length === ASKED + 1, { timeoutMs: 60_000, what: 'every request answered' });
      // board.get was read only once all but the last MAX_PAGE_IN_FLIGHT requests (and one read's worth) were answered.
      assert.ok(order.indexOf('board') >= ASKED - MAX_PAGE_IN_FLIGHT - 2, `board.get answered after ${order.indexOf('board')} of ${ASKED}`);
    } finally {
      page.close();
      await session.call('pane.kill', { target: pane });
    }
  });

  it('a page that keeps asking but never reads is closed once its replies pass the bound; other pages go on', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'asked' });
    const reader = await pageSocket(web, { origin: web.origin, cookie });
    const greedy = await pageSocket(web, { origin: web.origin, cookie });
    try {
      const closed = new Promise<number>((resolve) => greedy.ws.once('close', (code) => resolve(code)));
      socketOf(greedy).pause();
      // Each reply is the agent's whole screen, far larger than its request: the page asks until the server cuts it off.
      const request = (n: number) => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'agent.read', params: { target: agent, ansi: true } });
      let sent = 0;
      await waitFor(
        () => {
          if (greedy.ws.readyState !== greedy.ws.OPEN) return true;
          for (let i = 0; i < 200; i++) greedy.ws.send(request(sent++));
          return false;
        },
        { timeoutMs: 120_000, what: 'the server to close the page that does not read' },
      );
      socketOf(greedy).resume();
      const code = await closed;
      // The close frame reaches a page that reads what was queued before the server cut it off; this one did not.
      assert.ok(code === FELL_BEHIND_CLOSE_CODE || code === 1006, `closed with ${code}`);
      assert.match(web.stderr(), /fell behind/);
      assert.ok((await reader.call('board.get')).result, 'the other page is served');
    } finally {
      reader.close();
      greedy.close();
    }
  });
});
