import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { RawClient } from '../../../harness/raw-client.ts';

describe('the daemon facing bad input on its socket', () => {
  let daemon: DaemonProcess;
  let bystander: RawClient;
  let nextId = 1000;

  before(async () => {
    daemon = await startDaemon();
    bystander = await RawClient.connect(daemon.socket);
  });

  after(async () => {
    bystander?.close();
    await daemon?.dispose();
  });

  async function bystanderStillServed(): Promise<void> {
    const reply = await bystander.call(nextId++, 'server.status');
    assert.equal(reply.result.protocolVersion, 2);
  }

  async function replyTo(bytes: string | Buffer): Promise<any> {
    const client = await RawClient.connect(daemon.socket);
    try {
      client.write(bytes);
      return await client.next();
    } finally {
      client.close();
    }
  }

  it('answers invalid JSON with -32700, id null and parse_error', async () => {
    const reply = await replyTo('{"jsonrpc": "2.0", "id": 1, \n');
    assert.deepEqual([reply.id, reply.error.code, reply.error.data.code], [null, -32700, 'parse_error']);
    await bystanderStillServed();
  });

  it('answers a JSON value that is not an object with -32600 and invalid_request', async () => {
    for (const line of ['42\n', '"hello"\n', 'null\n', '[]\n']) {
      const reply = await replyTo(line);
      assert.deepEqual([reply.id, reply.error.code, reply.error.data.code], [null, -32600, 'invalid_request'], line);
    }
    await bystanderStillServed();
  });

  it('answers a request without jsonrpc 2.0 with -32600 and keeps its id', async () => {
    const reply = await replyTo('{"id": 7, "method": "server.status"}\n');
    assert.deepEqual([reply.id, reply.error.code, reply.error.data.code], [7, -32600, 'invalid_request']);
  });

  it('answers an unknown method with -32601 and method_not_found', async () => {
    const reply = await replyTo('{"jsonrpc": "2.0", "id": "a", "method": "pane.explode"}\n');
    assert.deepEqual([reply.id, reply.error.code, reply.error.data.code], ['a', -32601, 'method_not_found']);
    assert.match(reply.error.message, /pane\.explode/);
    await bystanderStillServed();
  });

  it('answers wrong params with -32602 and invalid_params naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ target: 'w1:p1', cols: 'wide', rows: 10 }, /"cols" must be an integer/],
      [{ target: 'w1:p1', rows: 10 }, /"cols" is required/],
      [{ target: 'w1:p1', cols: 80, rows: 10, depth: 3 }, /"depth" is not a known field/],
      [[1, 2], /params must be an object/],
    ];
    for (const [params, message] of cases) {
      const reply = await bystander.call(nextId++, 'pane.resize', params);
      assert.equal(reply.error.code, -32602);
      assert.equal(reply.error.data.code, 'invalid_params');
      assert.match(reply.error.message, message);
    }
  });

  it('answers a 2 MiB line with frame_too_large, then closes that connection only', async () => {
    const client = await RawClient.connect(daemon.socket);
    client.write(`{"jsonrpc":"2.0","id":1,"method":"server.status","params":{"pad":"${'x'.repeat(2 << 20)}"}}\n`);
    const reply = await client.next();
    assert.deepEqual([reply.id, reply.error.data.code], [null, 'frame_too_large']);
    await client.closed;
    await bystanderStillServed();
  });

  it('answers binary bytes with a parse error and stays up', async () => {
    const reply = await replyTo(Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x1b]), Buffer.from('\n')]));
    assert.equal(reply.error.data.code, 'parse_error');
    await bystanderStillServed();
  });

  it('lets a client send half a line and close without harm', async () => {
    const client = await RawClient.connect(daemon.socket);
    client.write('{"jsonrpc":"2.0","id":1,"meth');
    client.socket.end();
    await client.closed;
    await bystanderStillServed();
  });

  it('answers a request whose sender already shut its side of the socket', async () => {
    const client = await RawClient.connect(daemon.socket);
    client.request(5, 'server.status');
    client.socket.end();
    const reply = await client.next();
    assert.equal(reply.id, 5);
    assert.equal(typeof reply.result.pid, 'number');
    await client.closed;
  });

  it('serves requests on one connection concurrently and answers each by id', async () => {
    const client = await RawClient.connect(daemon.socket);
    try {
      client.write(['server.status', 'pane.list', 'pane.get'].map((method, i) =>
        JSON.stringify({ jsonrpc: '2.0', id: i + 1, method, params: method === 'pane.get' ? { target: 'nope' } : {} }),
      ).join('\n') + '\n');
      const replies = [await client.next(), await client.next(), await client.next()];
      const byId = new Map(replies.map((r) => [r.id, r]));
      assert.equal(byId.get(1).result.protocolVersion, 2);
      assert.deepEqual(byId.get(2).result, { panes: [] });
      assert.equal(byId.get(3).error.data.code, 'pane_not_found');
    } finally {
      client.close();
    }
  });

  it('answers a batch with one reply per request and none for notifications', async () => {
    const reply = await replyTo(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'pane.list' },
        { jsonrpc: '2.0', method: 'pane.list' },
        7,
      ]) + '\n',
    );
    assert.equal(reply.length, 2);
    assert.deepEqual(reply[0].result, { panes: [] });
    assert.equal(reply[1].error.data.code, 'invalid_request');
  });

  it('never answers with code 0 and gives every error a stable data.code', async () => {
    const reply = await bystander.call(nextId++, 'pane.read', { target: 'w9:p9' });
    assert.deepEqual([reply.error.code, reply.error.data.code], [1001, 'pane_not_found']);
  });
});
