import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RawClient } from '../../../harness/raw-client.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('a pending wait and its client', () => {
  const session = useDaemon();

  it('is cancelled when the client that asked goes away', async () => {
    const id = await session.fakeAgent(200);
    const waiter = await RawClient.connect(session.daemon.socket);
    // Blocked never comes: the wait stays pending until its client leaves.
    void waiter.call(1, 'agent.wait', { targets: [id], until: ['blocked'], timeoutMs: 600_000 }).catch(() => undefined);
    await waitFor(async () => (await session.call('server.status')).waits === 1, { what: 'the wait to be pending' });
    assert.equal((await session.call('server.status')).connections, 2);
    waiter.close();
    await waitFor(async () => {
      const status = await session.call('server.status');
      return status.waits === 0 && status.connections === 1;
    }, { what: 'the wait to be dropped with its connection' });
    await session.call('pane.kill', { target: id });
  });

  it('still answers a client that only shut its sending side, after one server.probe notification', async () => {
    const id = await session.fakeAgent(300);
    const waiter = await RawClient.connect(session.daemon.socket);
    waiter.request(1, 'agent.wait', { targets: [id], until: ['working'], timeoutMs: 20_000 });
    await waitFor(async () => (await session.call('server.status')).waits === 1, { what: 'the wait to be pending' });
    waiter.socket.end(); // half-close: nothing more to send, replies still welcome
    assert.deepEqual(await waiter.next(), { jsonrpc: '2.0', method: 'server.probe', params: {} });
    await session.call('agent.prompt', { target: id, text: 'go' });
    const reply = await waiter.next();
    assert.equal(reply.id, 1);
    assert.deepEqual(reply.result.matched, [id]);
    waiter.close();
    await session.call('pane.kill', { target: id });
  });
});

