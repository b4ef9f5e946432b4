import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DaemonConnection } from '../../../src/cli/with-daemon.ts';
import { EVENT } from '../../../src/protocol/notifications.ts';
import { EVENTS_DROPPED, EVENTS_READ, EVENTS_SUBSCRIBE, type CorralEvent } from '../../../src/protocol/methods/events.ts';
import { PANE_KILL, PANE_READ, PANE_SEND, PANE_SPAWN } from '../../../src/protocol/methods/pane.ts';
import { PANE_REPORT_AGENT } from '../../../src/protocol/methods/report.ts';
import { PANE_REPORT_METADATA } from '../../../src/protocol/methods/metadata.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';

const FAKE_CLAUDE = fileURLToPath(new URL('../../fixtures/agents/fake-claude.mjs', import.meta.url));
const REPORT_PROXY = fileURLToPath(new URL('../../fixtures/report-proxy.mjs', import.meta.url));

let proxies = 0;
/**
 * A pane whose program relays connections to the daemon: reports sent through `reporter` come from
 * inside the pane, as the kernel sees it, so they are accepted like a hook's.
 */
async function reporterPane(control: DaemonConnection, dir: string, name?: string) {
  const path = join(dir, `proxy-${(proxies += 1)}.sock`);
  const pane = await control.call(PANE_SPAWN, { command: process.execPath, args: [REPORT_PROXY, path], cwd: dir, ...(name ? { name } : {}) });
  // The socket file appears at bind(), before listen(): a connect in between is refused. Wait for the proxy's own word.
  await waitFor(async () => (await control.call(PANE_READ, { target: pane.id })).text.includes('proxy ready'), { what: 'the report proxy to listen' });
  return { pane, path, reporter: await DaemonConnection.connect(path) };
}

/** A subscribed connection that keeps every event it is sent, in arrival order. */
class Subscription {
  readonly events: CorralEvent[] = [];
  dropped: { code: string; cursor: number } | null = null;
  closed = false;

  private constructor(readonly client: DaemonConnection) {
    client.onNotification(EVENT, (event) => this.events.push(event as CorralEvent));
    client.onNotification(EVENTS_DROPPED, (params) => (this.dropped = params));
    client.onClose(() => (this.closed = true));
  }

  static async open(socket: string, params: { since?: number; filter?: string } = {}) {
    const subscription = new Subscription(await DaemonConnection.connect(socket));
    const reply = await subscription.client.call(EVENTS_SUBSCRIBE, params);
    return { subscription, ...reply };
  }

  of(paneId: string, kind?: string): CorralEvent[] {
    return this.events.filter((e) => e.pane?.id === paneId && (kind === undefined || e.kind === kind));
  }

  until(check: (events: CorralEvent[]) => boolean, what: string, timeoutMs = 8000): Promise<unknown> {
    return waitFor(() => check(this.events), { what: `${what}; got ${this.events.map((e) => `${e.cursor}:${e.kind}`).join(' ')}`, timeoutMs });
  }

  close(): void {
    this.client.dispose();
  }
}

function writeConfig(dir: string, text: string): void {
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  writeFileSync(join(dir, 'config', 'corral', 'config.toml'), text);
}

/** Drives a pane through working and idle by hook reports from inside it: quick, deterministic events. */
async function reportCycles(client: DaemonConnection, target: string, cycles: number): Promise<void> {
  for (let i = 0; i < cycles; i += 1) {
    await client.call(PANE_REPORT_AGENT, { target, source: 'test', agent: 'claude', state: 'working' });
    await client.call(PANE_REPORT_AGENT, { target, source: 'test', agent: 'claude', state: 'idle' });
  }
}

function assertContiguous(events: CorralEvent[], from: number, to: number): void {
  assert.deepEqual(
    events.map((e) => e.cursor),
    Array.from({ length: to - from + 1 }, (_, i) => from + i),
    'every cursor exactly once, in order',
  );
}

describe('events and notifications through a real daemon', () => {
  let daemon: DaemonProcess;
  let control: DaemonConnection;
  let notifyFile: string;
  const open: Subscription[] = [];

  before(async () => {
    const dir = makeTempDir();
    notifyFile = join(dir, 'notified.txt');
    writeConfig(
      dir,
      [
        '[notify]',
        `command = ["sh", "-c", "echo \\"$1 $2 $3\\" >> ${notifyFile}", "notify", "{name}", "{state}", "{agent}"]`,
        'cooldown_ms = 30000',
        '',
        '[events]',
        'subscriber_buffer_bytes = 16384',
      ].join('\n'),
    );
    daemon = await startDaemon({ dir });
    control = await DaemonConnection.connect(daemon.socket);
  });

  after(async () => {
    for (const subscription of open) subscription.close();
    control?.dispose();
    await daemon?.dispose();
  });

  async function subscribe(params: { since?: number; filter?: string } = {}) {
    const opened = await Subscription.open(daemon.socket, params);
    open.push(opened.subscription);
    return opened;
  }

  it('answers a subscribe with the cursor and a snapshot of panes and agents', async () => {
    const { pane, reporter } = await reporterPane(control, daemon.dir, 'snap');
    await reporter.call(PANE_REPORT_AGENT, { target: pane.id, source: 'test', agent: 'claude', state: 'working' });
    const { cursor, snapshot, subscription } = await subscribe();
    assert.ok(cursor > 0);
    assert.ok(snapshot.panes.some((p) => p.id === pane.id));
    const agent = snapshot.agents.find((a) => a.id === pane.id);
    assert.equal(agent?.agent, 'claude');
    assert.equal(agent?.state, 'working');
    assert.ok(snapshot.stateChangeSeq >= 1, 'the snapshot carries the state_change_seq it was taken at');
    await reporter.call(PANE_REPORT_METADATA, { target: pane.id, source: 'test', title: 'refactor auth' }); // from inside the pane
    reporter.dispose();
    await subscription.until((events) => events.some((e) => e.kind === 'metadata.changed'), 'metadata.changed');
    const metadata = subscription.of(pane.id, 'metadata.changed')[0] as CorralEvent<'metadata.changed'>;
    assert.equal((metadata.data.metadata as { title?: string }).title, 'refactor auth');
    await control.call(PANE_KILL, { target: pane.id });
    await subscription.until((events) => events.some((e) => e.kind === 'pane.removed' && e.pane?.id === pane.id), 'pane.removed');
    const kinds = subscription.of(pane.id).map((e) => e.kind);
    // The agent's process may end before the PTY stream closes: released and exited come in either order.
    assert.deepEqual(kinds.slice(-3).sort(), ['agent.released', 'pane.exited', 'pane.removed']);
    assert.equal(kinds.at(-1), 'pane.removed');
    assert.ok(subscription.events.every((e) => e.cursor > cursor), 'only events after the returned cursor');
    subscription.close();
  });

  it('tells one stateChanged per transition, never one per redraw, and attention on done and blocked', async () => {
    const { subscription } = await subscribe({ filter: 'pane:fake' });
    const pane = await control.call(PANE_SPAWN, {
      command: process.execPath,
      args: [FAKE_CLAUDE],
      name: 'fake',
      cwd: daemon.dir,
      env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '900' }, // ~11 spinner redraws per task
    });
    await subscription.until((events) => events.some((e) => e.kind === 'agent.stateChanged' && (e.data as any).to === 'idle'), 'idle');
    const start = subscription.events.length;
    await control.call(PANE_SEND, { target: pane.id, text: 'go', keys: ['Enter'] });
    await subscription.until((events) => events.some((e, i) => i >= start && e.kind === 'agent.attention'), 'done');
    await control.call(PANE_SEND, { target: pane.id, text: 'perm', keys: ['Enter'] });
    await subscription.until((events) => events.filter((e, i) => i >= start && e.kind === 'agent.attention').length === 2, 'blocked');
    await control.call(PANE_SEND, { target: pane.id, text: '1' });
    await subscription.until((events) => events.filter((e, i) => i >= start && e.kind === 'agent.attention').length === 3, 'done again');

    const after = subscription.events.slice(start);
    const transitions = after.filter((e) => e.kind === 'agent.stateChanged').map((e) => `${(e.data as any).from}>${(e.data as any).to}`);
    assert.deepEqual(transitions, ['idle>working', 'working>done', 'done>working', 'working>blocked', 'blocked>working', 'working>done']);
    const attention = after.filter((e) => e.kind === 'agent.attention') as CorralEvent<'agent.attention'>[];
    assert.deepEqual(attention.map((e) => e.data.state), ['done', 'blocked', 'done']);
    for (const event of attention) {
      const change = after.find((e) => e.kind === 'agent.stateChanged' && (e.data as any).seq === event.data.seq);
      assert.ok(change && change.cursor === event.cursor - 1, 'attention follows the change it comes from, with its seq');
      assert.equal(event.data.agent, 'claude');
    }
    const seqs = after.filter((e) => e.kind === 'agent.stateChanged').map((e) => (e.data as any).seq as number);
    assert.ok(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!), 'seq grows');
    assert.ok(subscription.events.every((e) => e.pane?.name === 'fake'), 'the filter keeps only this pane');

    // Notifications: done twice within the cooldown notifies once; blocked once.
    await waitFor(() => {
      try {
        return readFileSync(notifyFile, 'utf8').trim().split('\n').length >= 2;
      } catch {
        return false;
      }
    }, { what: 'two notifications' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(readFileSync(notifyFile, 'utf8').trim().split('\n'), ['fake done claude', 'fake blocked claude']);
    await control.call(PANE_KILL, { target: pane.id });
    subscription.close();
  });

  it('resumes from a cursor across a reconnect with nothing lost or doubled', async () => {
    const { pane, reporter } = await reporterPane(control, daemon.dir, 'resume');
    const { subscription: reference, cursor: from } = await subscribe();
    const first = await subscribe({ since: from });
    await reportCycles(reporter, pane.id, 10);
    await first.subscription.until((events) => events.length >= 10, 'ten events');
    first.subscription.close();
    const seen = [...first.subscription.events];
    const last = seen.at(-1)!.cursor;
    await reportCycles(reporter, pane.id, 10); // published while no one resumes
    const second = await subscribe({ since: last });
    await reportCycles(reporter, pane.id, 5);
    reporter.dispose();
    await control.call(PANE_KILL, { target: pane.id });
    const end = (events: CorralEvent[]) => events.some((e) => e.kind === 'pane.removed' && e.pane?.id === pane.id);
    await second.subscription.until(end, 'the end of the run');
    await reference.until(end, 'the end of the run');
    const resumed = [...seen, ...second.subscription.events];
    assertContiguous(resumed, from + 1, resumed.at(-1)!.cursor);
    assert.deepEqual(resumed, reference.events, 'the resumed stream is exactly the uninterrupted one');
    const read = await control.call(EVENTS_READ, { since: from, limit: 10_000 });
    assert.deepEqual(read.events.slice(0, resumed.length), resumed, 'events.read agrees');
    reference.close();
    second.subscription.close();
  });

  it('drops a subscriber that stops reading with slow_consumer while another keeps receiving', async () => {
    const { pane, path, reporter } = await reporterPane(control, daemon.dir, 'flood');
    const { subscription: reader, cursor: from } = await subscribe();
    const stalled = await pausedSubscriber(daemon.socket);
    const client = await DaemonConnection.connect(path);
    // The daemon keeps a dropped connection open for a short grace, then destroys it with whatever
    // is unsent: the stalled client starts reading as soon as the drop is logged, not after the run.
    const dropped = () => daemon.stderr().includes('slow event consumer dropped');
    const tailRead = waitFor(dropped, { what: 'the drop', timeoutMs: 120_000 }).then(() => stalled.drain());
    try {
      for (let round = 0; round < 40 && !dropped(); round += 1) {
        await reportCycles(client, pane.id, 50); // sequential: concurrent reports would collapse into few changes
      }
      await waitFor(dropped, { what: 'the drop', timeoutMs: 6000 });
    } finally {
      client.dispose();
    }
    await reportCycles(reporter, pane.id, 2);
    reporter.dispose();
    await control.call(PANE_KILL, { target: pane.id });
    await reader.until((events) => events.some((e) => e.kind === 'pane.removed' && e.pane?.id === pane.id), 'the end', 15000);
    assertContiguous(reader.events, from + 1, reader.events.at(-1)!.cursor);
    assert.equal(reader.dropped, null);
    const tail = await tailRead;
    const lastLine = JSON.parse(tail.trim().split('\n').at(-1)!);
    assert.equal(lastLine.method, 'events.dropped');
    assert.equal(lastLine.params.code, 'slow_consumer');
    reader.close();
  });
});

/** Subscribes on a raw socket, then stops reading. `drain` reads what is left until the daemon closes it. */
async function pausedSubscriber(path: string): Promise<{ socket: Socket; drain(): Promise<string> }> {
  const socket = connect(path);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'events.subscribe', params: {} })}\n`);
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.pause();
  return {
    socket,
    drain: () =>
      new Promise((resolve) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.once('close', () => resolve(text));
        socket.resume();
      }),
  };
}

describe('events: retention', () => {
  let daemon: DaemonProcess;
  let control: DaemonConnection;

  before(async () => {
    const dir = makeTempDir();
    writeConfig(dir, '[events]\nretain = 100\n');
    daemon = await startDaemon({ dir });
    control = await DaemonConnection.connect(daemon.socket);
  });

  after(async () => {
    control?.dispose();
    await daemon?.dispose();
  });

  it('answers cursor_too_old for a cursor no longer retained, and stream_changed for one before or ahead of the stream', async () => {
    const { pane, reporter } = await reporterPane(control, daemon.dir);
    await reportCycles(reporter, pane.id, 60);
    reporter.dispose();
    const read = await control.call(EVENTS_READ, {});
    assert.equal(read.events.length, 100, 'the last 100 are kept');
    assert.equal(read.oldest, read.cursor - 99);
    await assert.rejects(control.call(EVENTS_SUBSCRIBE, { since: 0 }), { code: 'cursor_too_old' });
    await assert.rejects(control.call(EVENTS_READ, { since: read.oldest - 2 }), { code: 'cursor_too_old' });
    await assert.rejects(control.call(EVENTS_SUBSCRIBE, { since: 1 }), { code: 'stream_changed' });
    await assert.rejects(control.call(EVENTS_SUBSCRIBE, { since: read.cursor + 5 }), { code: 'stream_changed' });
    const fromOldest = await control.call(EVENTS_READ, { since: read.oldest - 1 });
    assert.equal(fromOldest.events[0]!.cursor, read.oldest, 'the oldest retained cursor still resumes');
    await control.call(PANE_KILL, { target: pane.id });
  });
});
