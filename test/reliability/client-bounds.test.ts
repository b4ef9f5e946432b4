import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Connection, MAX_REPLY_BYTES } from '../../src/daemon/rpc/connection.ts';
import { MAX_CONNECTIONS } from '../../src/daemon/daemon.ts';
import { MAX_PENDING_INPUT_BYTES } from '../../src/daemon/panes/input-room.ts';
import { createLogger } from '../../src/daemon/logger.ts';
import { MAX_READ_LINES } from '../../src/protocol/methods/pane.ts';
import { makeTempDir } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

/** The daemon's peak resident memory so far, in MiB (VmHWM). */
function peakMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Reads newline-delimited replies from a raw socket until `count` arrived or it closed. */
function collect(socket: Socket, count: number): Promise<any[]> {
  return new Promise((resolve) => {
    const replies: any[] = [];
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      buffer += text;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        replies.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
      if (replies.length >= count) resolve(replies);
    });
    socket.on('close', () => resolve(replies));
  });
}

describe('no client can stall or balloon the daemon', () => {
  const session = useDaemon();

  it('answers 2,000 pipelined scrollback reads in pages, within a bounded memory', async () => {
    const pane = await session.call('pane.spawn', {
      command: '/bin/sh',
      args: ['-c', `i=0; while [ $i -lt 6000 ]; do printf '\\033[1;3%dmline %05d %0120d\\033[0m\\n' $((i % 7)) $i 0; i=$((i+1)); done; exec sleep 300`],
      cwd: session.daemon.dir,
      cols: 200,
    });
    await session.screenContains(pane.id, 'line 05999');
    const page = await session.call('pane.read', { target: pane.id, source: 'scrollback', ansi: true, lines: 100_000 });
    assert.equal(page.text.split('\n').length, MAX_READ_LINES, 'one read returns one page at most');
    assert.equal(page.more, true);
    const before = peakMiB(session.daemon.pid);
    const socket = connect(session.daemon.socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    const replies = collect(socket, 2000);
    const line = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'pane.read', params: { target: pane.id, source: 'scrollback', lines: 200 } })}\n`;
    socket.write(Array.from({ length: 2000 }, (_, i) => line(i + 1)).join(''));
    // Another client is served while the flood is: requests start one per turn of the event loop.
    await session.call('server.status', {});
    const answered = await replies;
    socket.destroy();
    assert.equal(answered.length, 2000, 'every request is answered');
    assert.ok(answered.every((r) => r.result && r.result.text.split('\n').length === 200));
    const grown = peakMiB(session.daemon.pid) - before;
    assert.ok(grown < 200, `the daemon's peak memory grew by ${grown.toFixed(0)} MiB`);
    const older = await session.call('pane.read', { target: pane.id, source: 'scrollback', lines: 10, offset: MAX_READ_LINES });
    assert.equal(older.text.split('\n').length, 10, 'offset pages back');
    await session.call('pane.kill', { target: pane.id });
  });

  it('answers pane_input_full once a pane that reads nothing holds the bound', async () => {
    const pane = await session.call('pane.spawn', { command: 'sleep', args: ['300'], cwd: session.daemon.dir });
    const chunk = `${'x'.repeat(1023)}\r`.repeat(512); // whole lines: the terminal takes a line longer than its buffer and drops it
    let refused: any = null;
    for (let i = 0; i < (MAX_PENDING_INPUT_BYTES >> 19) + 2 && refused === null; i += 1) {
      const reply = await session.client.call(1000 + i, 'pane.send', { target: pane.id, text: chunk });
      if (reply.error) refused = reply.error;
    }
    assert.equal(refused?.data?.code, 'pane_input_full');
    assert.equal(refused.data.limit, MAX_PENDING_INPUT_BYTES);
    await session.call('pane.kill', { target: pane.id });
  });

  it('closes a connection whose line stays unfinished, with frame_timeout', async () => {
    const socket = connect(session.daemon.socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    const replies = collect(socket, 1);
    socket.write('{"jsonrpc":"2.0","id":1,"method":"server.status"');
    const [reply] = await replies;
    assert.equal(reply?.error?.data?.code, 'frame_timeout');
    await waitFor(() => socket.destroyed || socket.readableEnded, { what: 'the connection to close', timeoutMs: 5000 });
    socket.destroy();
  });

  it(`refuses connection ${MAX_CONNECTIONS + 1} with too_many_connections`, async () => {
    const held: Socket[] = [];
    try {
      // The session's own client holds one already.
      for (let i = 0; i < MAX_CONNECTIONS - 1; i += 1) {
        const socket = connect(session.daemon.socket);
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        held.push(socket);
      }
      await session.call('server.status', {}); // the daemon has accepted them all
      const extra = connect(session.daemon.socket);
      const [reply] = await collect(extra, 1);
      assert.equal(reply?.error?.data?.code, 'too_many_connections');
      extra.destroy();
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});

describe('a reply that cannot be sent', () => {
  it('is answered with reply_too_large for the same id, never dropped', async () => {
    const dir = makeTempDir();
    const path = join(dir, 'one.sock');
    let connection: Connection | undefined;
    const server = createServer((socket) => {
      connection = new Connection(1, socket, { frame: async () => {}, overflow: () => {} }, createLogger('silent'));
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const client = await RawClient.connect(path);
    await waitFor(() => connection !== undefined, { what: 'the connection' });
    connection!.send({ jsonrpc: '2.0', id: 7, result: { text: 'x'.repeat(MAX_REPLY_BYTES + 1) } });
    const reply = await client.next(20000);
    assert.equal(reply.id, 7);
    assert.equal(reply.error.data.code, 'reply_too_large');
    client.close();
    server.close();
  });
});
