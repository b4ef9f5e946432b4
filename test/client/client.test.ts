import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type AnyCorralEvent, type CorralClient } from '../../src/client/index.ts';
import { CorralError } from '../../src/protocol/errors.ts';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';

describe('the typed client', () => {
  let daemon: DaemonProcess;
  let client: CorralClient;
  const dir = makeTempDir();

  before(async () => {
    daemon = await startDaemon({ dir });
    client = await connect({ socket: daemon.socket, reconnect: { initialMs: 20, maxMs: 200 } });
  });

  after(async () => {
    client?.close();
    await daemon?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('calls methods by name and rejects with the stable error code', async () => {
    const pane = await client.call('pane.spawn', { command: '/bin/sh', args: ['-c', 'sleep 30'], name: 'sleeper', cwd: dir });
    assert.equal(pane.name, 'sleeper');
    const { panes } = await client.call('pane.list');
    assert.deepEqual(panes.map((p) => p.name), ['sleeper']);
    await assert.rejects(client.call('pane.get', { target: 'nobody' }), (error: unknown) => error instanceof CorralError && error.code === 'pane_not_found');
    await client.call('pane.kill', { target: 'sleeper' });
  });

  it('streams typed events, and a subscription from a cursor replays what came after it', async () => {
    const seen: AnyCorralEvent[] = [];
    const subscription = await client.subscribe({ filter: 'kind:pane.*' }, (event) => seen.push(event));
    const start = subscription.cursor;
    await client.call('pane.spawn', { command: '/bin/sh', args: ['-c', 'exit 3'], name: 'brief', cwd: dir });
    while (!seen.some((event) => event.kind === 'pane.exited')) await new Promise((resolve) => setTimeout(resolve, 20));
    const exited = seen.find((event) => event.kind === 'pane.exited')!;
    assert.equal(exited.kind === 'pane.exited' && exited.data.exitCode, 3);
    assert.ok(subscription.cursor >= exited.cursor);
    subscription.close();
    await subscription.ended;

    const replayed: AnyCorralEvent[] = [];
    const resumed = await client.subscribe({ filter: 'kind:pane.*', since: start }, (event) => replayed.push(event));
    while (replayed.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(replayed.slice(0, 2).map((event) => event.kind), ['pane.created', 'pane.exited']);
    resumed.close();
    await client.call('pane.kill', { target: 'brief' });
  });

  it('reconnects with back-off when the daemon restarts, and calls go on', async () => {
    const before = client.status.pid;
    await daemon.stop();
    daemon = await startDaemon({ dir, socket: daemon.socket });
    const status = await client.call('server.status');
    assert.notEqual(status.pid, before);
    assert.equal(client.status.pid, status.pid);
  });

  it('runs a fake agent from prompt to done through typed calls', async () => {
    await client.call('pane.spawn', {
      command: process.execPath,
      args: [FAKE_AGENT],
      name: 'worker',
      cwd: dir,
      env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '200' },
    });
    await client.call('agent.wait', { targets: ['worker'], until: ['idle'], timeoutMs: 20_000 });
    const { seq } = await client.call('agent.list');
    await client.call('agent.prompt', { target: 'worker', text: 'hello' });
    const done = await client.call('agent.wait', { targets: ['worker'], until: ['done'], sinceSeq: seq, timeoutMs: 20_000 });
    assert.deepEqual(done.states, { worker: 'done' });
  });
});

it('warns, and carries on, when the daemon speaks another protocol major', async () => {
  const dir = makeTempDir();
  const socket = join(dir, 'corral.sock');
  const server = createServer((conn) => {
    conn.setEncoding('utf8');
    conn.on('data', (line: string) => {
      const { id } = JSON.parse(line.split('\n')[0]!);
      const result = { version: '9.0.0', protocolVersion: 99, protocolMinor: 0, pid: 4242, uptimeMs: 1, paneCount: 0, socket };
      conn.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  const warnings: string[] = [];
  try {
    const client = await connect({ socket, reconnect: false, onWarning: (message) => warnings.push(message) });
    client.close();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /speaks protocol 2 but the daemon .* speaks 99/);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
