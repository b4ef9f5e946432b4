import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling as connect, RawClient } from '../../../harness/raw-client.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { waitFor } from '../../../harness/wait.ts';

// The pty host forwards output as read from the PTY, so a character can be split between two frames.
// The program stops in the middle of each character until it is given a line, so the host has read
// (and the daemon parsed) the first half alone before the second half is written.
const SPLIT = [
  'stty -echo',
  `printf 'A\\342\\202'`, // A, then the first two bytes of the euro sign (e2 82 ac)
  'read -r _',
  `printf '\\254B\\360\\237'`, // the euro's last byte, B, then half of U+1F600 (f0 9f 98 80)
  'read -r _',
  `printf '\\230\\200C\\n'`,
  'exec sleep 100000',
].join('; ');

test('a character split between two reads of the PTY comes out whole: on the screen, to a client attached mid-character, and across a daemon restart', async () => {
  const dir = makeTempDir();
  const first = await startDaemon({ dir });
  let second: DaemonProcess | undefined;
  const viewer = await RawClient.connect(first.socket);
  try {
    const a = await connect(first);
    const pane = await a.call('pane.spawn', { command: 'bash', args: ['-c', SPLIT], name: 'split', cwd: dir });
    const screen = async (call: typeof a.call) => (await call('pane.read', { target: pane.id })).text as string;
    await waitFor(async () => (await screen(a.call)).startsWith('A'), { what: 'the first half on the screen' });

    // Attached while the euro sign is half parsed: the client gets it whole.
    viewer.request(1, 'pane.attach', { target: pane.id });
    for (;;) if ((await viewer.next()).id === 1) break;
    await a.call('pane.send', { target: pane.id, keys: ['Enter'] });
    await waitFor(async () => (await screen(a.call)).startsWith('A€B'), { what: 'the euro sign on the screen' });
    let mirrored = '';
    while (!mirrored.includes('B')) {
      const message = await viewer.next();
      if (message.method === 'pane.output' && !message.params.redraw) mirrored += message.params.data;
    }
    assert.equal(mirrored, '€B', 'the attached client got the character whole');
    viewer.close();
    a.client.close();

    // The daemon dies with U+1F600 half printed; the next one replays the host's ring, and the live
    // output after it completes the character.
    await killDaemon(first);
    second = await startDaemon({ dir });
    const b = await connect(second);
    await waitFor(async () => (await screen(b.call)).startsWith('A€B'), { what: 'the replayed screen' });
    await b.call('pane.send', { target: pane.id, keys: ['Enter'] });
    await waitFor(async () => (await screen(b.call)).startsWith('A€B😀C'), { what: 'the character completed after the replay' });
    const text = await screen(b.call);
    assert.ok(!text.includes('\ufffd'), 'no replacement character');
    b.client.close();
  } finally {
    viewer.close();
    if (second) await second.dispose();
    await first.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
