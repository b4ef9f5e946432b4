// Connections that wait in the listen backlog are all accepted at once, however long a turn of the
// event loop is: libuv takes one per turn, and under a pane.send flood 256 of them took seconds, each
// frame timer starting only at its accept (issue 23, section 3).
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { FRAME_IDLE_TIMEOUT_MS } from '../../../src/daemon/rpc/connection.ts';
import { MAX_CONNECTIONS } from '../../../src/daemon/daemon.ts';
import { RawClient } from '../../../harness/raw-client.ts';
import { useDaemon } from '../../helpers/session.ts';

/** Flooding connections, each with this many 1 MB sends in flight at once. */
const FLOODS = 4;
const PIPELINED = 16;
/** Rounds answered before the flood counts as under way (the pane's input bound full, its echo parsed). */
const UNDER_WAY_ROUNDS = 3;

function connected(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends PIPELINED pane.sends of 1 MB, again each time all are answered, until `stop` is called. */
async function flood(path: string, target: string): Promise<{ underWay: Promise<void>; stop: () => Promise<void> }> {
  const socket = await connected(path);
  const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pane.send', params: { target, text: 'x'.repeat(1e6) } })}\n`;
  let flooding = true;
  let answered = 0;
  let rounds = 0;
  let markUnderWay = () => {};
  const underWay = new Promise<void>((resolve) => (markUnderWay = resolve));
  const round = () => {
    if ((rounds += 1) > UNDER_WAY_ROUNDS) markUnderWay();
    socket.write(line.repeat(PIPELINED));
  };
  const ended = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) answered += 1;
      if (answered < PIPELINED) return;
      answered -= PIPELINED;
      if (flooding) round();
      else resolve();
    });
    socket.on('close', () => resolve());
  });
  round();
  return {
    underWay,
    stop: async () => {
      flooding = false;
      await ended;
      socket.destroy();
    },
  };
}

/** A client that sends half a line and nothing more; resolves with the codes it was told, once closed. */
async function halfLine(path: string): Promise<{ closed: Promise<string[]> }> {
  const socket = await connected(path);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<string[]>((resolve) => socket.once('close', () => resolve([...text.matchAll(/"code":"([a-z_]+)"/g)].map((m) => m[1]!))));
  socket.write('{"jsonrpc":"2.0","id":1,"method":"server.status"');
  return { closed };
}

describe('connections waiting to be accepted during a pane.send flood', () => {
  const session = useDaemon();

  it(`are all accepted before the next request is served, and each half-sent line ends in frame_timeout while the flood runs`, async () => {
    // Echo on, no newline: the terminal takes the flood and echoes what fits, so the daemon parses output too.
    const pane = await session.call('pane.spawn', { command: 'sleep', args: ['300'], cwd: session.daemon.dir });
    const floods = await Promise.all(Array.from({ length: FLOODS }, () => flood(session.daemon.socket, pane.id)));
    await Promise.all(floods.map((f) => f.underWay));
    const slowCount = MAX_CONNECTIONS - 1 - FLOODS;
    const slow = await Promise.all(Array.from({ length: slowCount }, () => halfLine(session.daemon.socket)));
    // Every slow client is connected (in the daemon's backlog, or accepted). The second status call is
    // sent after the first was answered, so the daemon has taken its listening socket's readiness in
    // between: all of them must be accepted by then, not one more per turn.
    await session.call('server.status', {});
    const status = await session.call('server.status', {});
    assert.equal(status.connections, MAX_CONNECTIONS, 'every waiting connection was accepted at once');
    const codes = await Promise.all(slow.map((s) => s.closed));
    // Their places are free again while the flood still runs: a new client is served.
    const fresh = await RawClient.connect(session.daemon.socket);
    const reply = await fresh.call(1, 'server.status', {});
    fresh.close();
    const stops = floods.map((f) => f.stop());
    assert.ok(reply.result, `a new client is served once they are gone: ${JSON.stringify(reply.error)}`);
    assert.deepEqual(
      codes.filter((c) => c.join() !== 'frame_timeout'),
      [],
      `each of the ${slowCount} half-sent lines was closed with frame_timeout after ${FRAME_IDLE_TIMEOUT_MS} ms without a byte`,
    );
    await Promise.all(stops);
    await session.call('pane.kill', { target: pane.id });
  });
});
