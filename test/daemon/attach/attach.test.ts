import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { RawClient } from '../../../harness/raw-client.ts';
import { startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';

let daemon: DaemonProcess;
let control: RawClient;
let nextId = 1000;
const call = (method: string, params: unknown) => control.call(nextId++, method, params);

before(async () => {
  daemon = await startDaemon();
  control = await RawClient.connect(daemon.socket);
});

after(async () => {
  control.close();
  await daemon.dispose();
});

test('pane.attach sends a redraw of the current screen first, then the raw output, until pane.detach', async () => {
  await call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile'], name: 'mirror', env: { PS1: '$ ' } });
  await call('pane.send', { target: 'mirror', text: 'echo ready-$((2+3))', keys: ['Enter'] });
  await waitFor(async () => (await call('pane.read', { target: 'mirror' })).result.text.includes('ready-5'));

  const viewer = await RawClient.connect(daemon.socket);
  try {
    viewer.request(1, 'pane.attach', { target: 'mirror', cols: 100, rows: 30 });
    const first = await viewer.next();
    assert.equal(first.method, 'pane.output');
    assert.equal(first.params.redraw, true);
    assert.match(first.params.data, /\x1b\[H\x1b\[2J/);
    assert.match(first.params.data, /ready-5/);
    const reply = await viewer.next();
    assert.deepEqual(reply.result, { id: first.params.id, name: 'mirror', cols: 100, rows: 30 });

    viewer.request(2, 'pane.send', { target: 'mirror', text: 'echo live-$((6*7))', keys: ['Enter'] });
    let seen = '';
    while (!seen.includes('live-42\r\n')) {
      const message = await viewer.next();
      if (message.method === 'pane.output') seen += message.params.data;
    }
    viewer.request(3, 'pane.detach', { target: 'mirror' });
    for (;;) {
      const message = await viewer.next();
      if (message.id === 3) {
        assert.deepEqual(message.result, { detached: true });
        break;
      }
    }
    await call('pane.send', { target: 'mirror', text: 'echo after-detach', keys: ['Enter'] });
    await assert.rejects(viewer.next(500), /no reply in time/, 'nothing is mirrored after pane.detach');
  } finally {
    viewer.close();
  }
});

test('the pane exiting ends the attachment with pane.detached and the exit code', async () => {
  await call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile'], name: 'ending' });
  const viewer = await RawClient.connect(daemon.socket);
  try {
    viewer.request(1, 'pane.attach', { target: 'ending' });
    await call('pane.send', { target: 'ending', text: 'exit 4', keys: ['Enter'] });
    for (;;) {
      const message = await viewer.next();
      if (message.method === 'pane.detached') {
        assert.equal(message.params.reason, 'exited');
        assert.equal(message.params.exitCode, 4);
        break;
      }
    }
    const again = await viewer.call(2, 'pane.attach', { target: 'ending' });
    assert.equal(again.error.data.code, 'pane_exited');
  } finally {
    viewer.close();
  }
});

test('a client that stops reading never stalls the pane; once it reads again it gets a fresh redraw', async () => {
  // A counted flood: the client resumes only once the pane has printed far more than the daemon
  // buffers for it (BEHIND_BYTES plus the kernel's socket buffers), however slow the machine is.
  await call('pane.spawn', { command: 'seq', args: ['-f', 'flood %09.0f', '1', '999999999'], name: 'flood' });
  const socket = connect(daemon.socket);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  try {
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pane.attach', params: { target: 'flood' } })}\n`);
    socket.pause(); // the client stops reading while the pane floods
    const printed = async () => Math.max(0, ...[...(await call('pane.read', { target: 'flood' })).result.text.matchAll(/flood (\d{9})/g)].map((m) => Number(m[1])));
    const before = await printed();
    // 500,000 lines of 16 bytes is 8 MiB: the pane kept running while the client did not read.
    await waitFor(async () => (await printed()) > before + 500_000, { timeoutMs: 120_000, what: '8 MiB of output past the stalled client' });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.resume();
    await waitFor(() => text.split('\n').slice(1).some((line) => line.includes('"redraw":true')), {
      timeoutMs: 10000,
      what: 'a catch-up redraw after the client read again',
    });
  } finally {
    socket.destroy();
    await call('pane.kill', { target: 'flood' });
  }
});

test('a client that fell behind when the pane exits gets its last screen as a redraw before pane.detached', async () => {
  // 600,000 lines of 16 bytes is 9 MiB: far past what the daemon buffers for a client that does not read.
  await call('pane.spawn', { command: 'sh', args: ['-c', "seq -f 'flood %09.0f' 1 600000; echo flood-done"], name: 'flood-exit' });
  const socket = connect(daemon.socket);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  try {
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pane.attach', params: { target: 'flood-exit' } })}\n`);
    socket.pause(); // the client falls behind, and the pane exits meanwhile
    await waitFor(async () => (await call('pane.get', { target: 'flood-exit' })).result.state === 'exited', { timeoutMs: 120_000, what: 'the flood to end' });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.resume();
    await waitFor(() => text.includes('"method":"pane.detached"'), { timeoutMs: 30_000, what: 'pane.detached' });
    const messages = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
    const detached = messages.findIndex((message) => message.method === 'pane.detached');
    const last = messages.slice(0, detached).filter((message) => message.method === 'pane.output').at(-1);
    assert.equal(last.params.redraw, true, 'what the client missed is repainted, not skipped');
    assert.match(last.params.data, /flood-done/, 'the screen the pane ended with');
  } finally {
    socket.destroy();
  }
});
