import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostClient, HostPaneSink } from '../../../src/terminal/pty-host/host-client.ts';
import { RemotePane } from '../../../src/terminal/pty-host/remote-pane.ts';
import type { DaemonMessage, HostPaneInfo } from '../../../src/terminal/pty-host/wire.ts';

/** The host's side as a recovered pane sees it: what the pane sends is kept, nothing is connected. */
function fakeClient(): { client: HostClient; sent: DaemonMessage[] } {
  const sent: DaemonMessage[] = [];
  const client = {
    adopt: (_handle: number, _sink: HostPaneSink) => ({ dispose: () => undefined }),
    send: (message: DaemonMessage) => void sent.push(message),
    input: () => undefined,
  } as unknown as HostClient;
  return { client, sent };
}

const info: HostPaneInfo = { handle: 1, pid: process.pid, meta: null, cols: 80, rows: 12, startedAt: 0, dropped: 0, exit: null, inputReceived: 0 };

/** A ring of some hundred 4 KiB parse slices. */
const ring = Buffer.from(`${Array.from({ length: 60_000 }, (_, i) => i + 1).join('\r\n')}\r\nend of ring\r\n`);

test('a recovered pane is replayed once its whole ring is parsed, not before', async () => {
  const { client } = fakeClient();
  const pane = new RemotePane(client, info, { recovered: true });
  try {
    pane.replay(ring);
    assert.doesNotMatch(pane.read({ source: 'screen' }), /end of ring/, 'the ring is parsed over later turns');
    await pane.replayed;
    assert.match(pane.read({ source: 'screen' }), /^60000\nend of ring$/m);
  } finally {
    pane.dispose();
  }
});

test('a recovered pane whose host goes away in the middle of its replay is replayed as far as it got: a read waiting on it is answered', async () => {
  const { client } = fakeClient();
  const pane = new RemotePane(client, info, { recovered: true });
  try {
    pane.replay(ring);
    pane.lost();
    await pane.replayed;
    assert.match(pane.read({ source: 'screen' }), /^end of ring$/m, 'the ring written before the loss is parsed');
    assert.equal(pane.exited?.lost, true);
  } finally {
    pane.dispose();
  }
});
