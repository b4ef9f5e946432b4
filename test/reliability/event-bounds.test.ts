import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { useDaemon } from '../helpers/session.ts';

/** One request on a fresh connection; the reply's raw line, to weigh it. */
function rawReply(path: string, method: string, params: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (text: string) => {
      buffer += text;
      const nl = buffer.indexOf('\n');
      if (nl === -1) return;
      socket.destroy();
      resolve(buffer.slice(0, nl));
    });
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}\n`);
  });
}

describe('events stay small whatever panes are spawned with', () => {
  const session = useDaemon();

  it('20 spawns with 240 KB of args each: the events, pane.list and one events.read stay small; pane.get has the args', async () => {
    const args = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(60_000)); // pane.spawn takes 64 KiB per argument
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      session.client.request(1000 + i, 'pane.spawn', { command: 'true', args, cwd: session.daemon.dir });
      const reply = await session.client.next(60_000); // a hang guard: a loaded machine spawns slowly
      assert.ok(reply.result, JSON.stringify(reply.error));
      ids.push(reply.result.id);
    }

    const read = await rawReply(session.daemon.socket, 'events.read', { filter: 'kind:pane.created' });
    const created = JSON.parse(read).result.events;
    assert.deepEqual(
      created.map((event: any) => event.pane.id),
      ids,
      'every spawn is one pane.created in a single read',
    );
    assert.ok(read.length < 64 * 1024, `one events.read of 20 pane.created events is ${read.length} bytes`);
    const list = await rawReply(session.daemon.socket, 'pane.list', {});
    assert.ok(list.length < 64 * 1024, `pane.list of 20 panes is ${list.length} bytes`);
    const detail = await session.call('pane.get', { target: ids[0] });
    assert.deepEqual(detail.args, args, 'pane.get has the args');
  });
});
