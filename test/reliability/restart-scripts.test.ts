import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { connect as connectClient, type AnyCorralEvent } from '../../src/client/index.ts';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, makeTempDir, startDaemon, testEnv, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling as connect } from '../../harness/raw-client.ts';
import { killDaemon } from '../helpers/restart.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

/** The real CLI as a long-running child: its output so far and its exit. */
function background(dir: string, args: string[]) {
  const child = spawn(process.execPath, [CORRAL_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...testEnv(dir) } });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (t: string) => (out.stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (out.stderr += t));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, out, exited };
}

/** Daemons started one after another in one folder, all disposed at the end. */
function daemons(dir: string) {
  const started: DaemonProcess[] = [];
  return {
    start: async () => {
      const daemon = await startDaemon({ dir });
      started.push(daemon);
      return daemon;
    },
    get last() {
      return started.at(-1)!;
    },
    dispose: async () => {
      for (const daemon of started.reverse()) await daemon.dispose();
    },
  };
}

describe('scripts outlive a daemon killed with -9', () => {
  it('a follower started before the kill prints exactly the events of the log, none missed or doubled; cursors and the epoch continue', async () => {
    const dir = makeTempDir();
    const run = daemons(dir);
    try {
      const first = await run.start();
      const socket = first.socket;
      const a = await connect(first);
      const before = await a.call('events.cursor', {});
      const follower = background(dir, ['--socket', socket, '--json', 'events', '--follow', '--since', String(before.cursor), '--reconnect', '60s']);
      // Pane lifecycle events before the kill, the last still in flight to the follower when it comes.
      await a.call('pane.spawn', { command: 'sh', args: ['-c', 'exit 0'], name: 'one-0' });
      await waitFor(() => follower.out.stdout.includes('"one-0"'), { what: `the follower streaming: ${follower.out.stderr}`, timeoutMs: 60_000 });
      for (let i = 1; i < 6; i += 1) await a.call('pane.spawn', { command: 'sh', args: ['-c', 'exit 0'], name: `one-${i}` });
      a.client.close();
      await killDaemon(first);

      const second = await run.start();
      const b = await connect(second);
      const after = await b.call('events.cursor', {});
      assert.equal(after.epoch, before.epoch, 'the same stream goes on');
      assert.ok(after.cursor > before.cursor, 'the events before the kill are in the log');
      for (let i = 0; i < 3; i += 1) await b.call('pane.spawn', { command: 'sh', args: ['-c', 'exit 0'], name: `two-${i}` });
      const marker = await b.call('pane.spawn', { command: 'sh', args: ['-c', 'exit 0'], name: 'last' });
      const logged = async () => {
        const events: any[] = [];
        let since = before.cursor;
        for (;;) {
          const page = await b.call('events.read', { since, epoch: before.epoch });
          events.push(...page.events);
          since = page.cursor;
          if (!page.more) return events;
        }
      };
      await waitFor(async () => (await logged()).some((e) => e.kind === 'pane.exited' && e.pane?.id === marker.id), { what: 'the last pane exited', timeoutMs: 30_000 });
      const expected = await logged();
      const lastCursor = expected.at(-1).cursor;
      await waitFor(() => follower.out.stdout.includes(`"cursor":${lastCursor},`), { what: `cursor ${lastCursor} at the follower: ${follower.out.stderr}`, timeoutMs: 60_000 });
      follower.child.kill('SIGINT');
      assert.equal(await follower.exited, 0, follower.out.stderr);
      const printed = follower.out.stdout.trim().split('\n').map((line) => JSON.parse(line));
      assert.deepEqual(printed.map((e) => e.cursor), expected.map((e) => e.cursor), 'every event once, in order, across the kill');
      assert.deepEqual(printed, expected);
      const names = expected.filter((e) => e.kind === 'pane.created').map((e) => e.pane.name);
      assert.deepEqual(names, [...[0, 1, 2, 3, 4, 5].map((i) => `one-${i}`), 'two-0', 'two-1', 'two-2', 'last']);
      b.client.close();
    } finally {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a waiter started before the kill ends with the result it would have had; a saved --since-seq keeps its meaning', async () => {
    const dir = makeTempDir();
    const release = join(dir, 'release');
    const run = daemons(dir);
    try {
      const first = await run.start();
      const socket = first.socket;
      const a = await connect(first);
      const pane = await a.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'turn', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_RELEASE: release } });
      await waitFor(async () => (await a.call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'the idle prompt box', timeoutMs: 60_000 });
      const saved = (await a.call('agent.list', {})).seq as number;
      await a.call('agent.prompt', { target: pane.id, text: 'hold' });
      await waitFor(async () => (await a.call('agent.get', { target: pane.id })).state === 'working', { what: 'the held turn to work', timeoutMs: 60_000 });
      const waiter = background(dir, ['--socket', socket, '--json', 'agent', 'wait', 'turn', '--until', 'idle', '--since-seq', String(saved), '--timeout', '3m', '--reconnect', '60s']);
      await waitFor(async () => (await a.call('server.status', {})).waits === 1, { what: 'the wait registered', timeoutMs: 30_000 });
      a.client.close();
      await killDaemon(first);
      writeFileSync(release, ''); // the turn ends while no daemon runs

      const second = await run.start();
      assert.equal(await waiter.exited, 0, `the waiter carried on: ${waiter.out.stderr}`);
      const result = JSON.parse(waiter.out.stdout);
      assert.deepEqual(result.matched, ['turn']);
      assert.equal(result.states.turn, 'done');

      // The saved seq, from before the restart, still means "after the turn began": it matches at once.
      const again = await runCli(['--socket', socket, '--json', 'agent', 'wait', 'turn', '--until', 'idle', '--since-seq', String(saved), '--timeout', '20s']);
      assert.equal(again.code, 0, again.stderr);
      // A seq taken after the turn ended sees no new turn in the recomputed state of the next restart.
      const b = await connect(second);
      const ended = (await b.call('agent.list', {})).seq as number;
      const endedAt = (await b.call('events.cursor', {})).cursor as number;
      assert.ok(ended > saved, `the seq went on from ${saved}: ${ended}`);
      b.client.close();
      await killDaemon(second);
      const third = await run.start();
      const c = await connect(third);
      await waitFor(async () => (await c.call('agent.get', { target: pane.id })).state === 'done', { what: 'done recomputed', timeoutMs: 60_000 });
      assert.ok((await c.call('agent.list', {})).seq >= ended, 'the seq never goes back');
      const none = await runCli(['--socket', third.socket, '--json', 'agent', 'wait', 'turn', '--until', 'idle', '--since-seq', String(ended), '--timeout', '2s']);
      const seen = (await c.call('events.read', { since: 0 })).events.filter((e: any) => e.pane?.id === pane.id && e.kind.startsWith('agent.')).map((e: any) => `${e.kind} ${e.data.from ?? ''}>${e.data.to ?? e.data.state} seq ${e.data.seq}${e.data.recovered ? ' recovered' : ''}`);
      assert.equal(none.code, 124, `no new turn after seq ${ended}: ${none.stdout} ${none.stderr}\n${seen.join('\n')}`);
      const repeated = (await c.call('events.read', { since: endedAt })).events.filter((e: any) => e.kind === 'agent.attention');
      assert.deepEqual(repeated, [], `the recomputed done is announced to nobody:\n${seen.join('\n')}`);
      c.client.close();
    } finally {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the typed client: a subscription and a wait started before the kill carry on to the same events and result', async () => {
    const dir = makeTempDir();
    const release = join(dir, 'release');
    const run = daemons(dir);
    const client = await (async () => {
      await run.start();
      return connectClient({ socket: run.last.socket, reconnect: { initialMs: 20, maxMs: 500 } });
    })();
    try {
      await client.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'typed', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_RELEASE: release } });
      await client.wait({ targets: ['typed'], until: ['idle'], timeoutMs: 60_000 });
      const seq = (await client.call('agent.list', {})).seq;
      const start = (await client.call('events.cursor', {})).cursor;
      const seen: AnyCorralEvent[] = [];
      const stream = await client.subscribe({ since: start, filter: 'pane:typed' }, (event) => seen.push(event));
      await client.call('agent.prompt', { target: 'typed', text: 'hold' });
      const waiting = client.wait({ targets: ['typed'], until: ['idle'], sinceSeq: seq, timeoutMs: 180_000 }, { reconnectGraceMs: 60_000 });
      await waitFor(async () => (await client.call('server.status', {})).waits === 1, { what: 'the wait registered', timeoutMs: 30_000 });
      await killDaemon(run.last);
      writeFileSync(release, '');
      await run.start();
      const result = await waiting;
      assert.deepEqual(result.matched, ['typed']);
      assert.equal(result.states.typed, 'done');
      const log: AnyCorralEvent[] = [];
      for (let since = start; ; ) {
        const page = await client.call('events.read', { since, filter: 'pane:typed' });
        log.push(...(page.events as AnyCorralEvent[]));
        since = page.cursor;
        if (!page.more) break;
      }
      await waitFor(() => seen.length > 0 && seen.at(-1)!.cursor >= log.at(-1)!.cursor, { what: 'the subscription to catch up', timeoutMs: 30_000 });
      assert.deepEqual(seen, log, 'every event of the pane once, in order, across the kill');
      assert.ok(log.some((e) => e.kind === 'agent.attention' && e.data.state === 'done'), 'the turn asked for attention');
      stream.close();
    } finally {
      client.close();
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a waiter exits 4 once the daemon stays away past --reconnect', async () => {
    const dir = makeTempDir();
    const run = daemons(dir);
    try {
      const first = await run.start();
      const a = await connect(first);
      await a.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'idle', cwd: dir, env: { CORRAL_AGENT: 'claude' } });
      await waitFor(async () => (await a.call('agent.get', { target: 'idle' })).rawState === 'idle', { what: 'the idle prompt box', timeoutMs: 60_000 });
      const waiter = background(dir, ['--socket', first.socket, 'agent', 'wait', 'idle', '--until', 'working', '--timeout', '5m', '--reconnect', '1s']);
      await waitFor(async () => (await a.call('server.status', {})).waits === 1, { what: 'the wait registered', timeoutMs: 30_000 });
      a.client.close();
      await killDaemon(first);
      assert.equal(await waiter.exited, 4, waiter.out.stderr);
      assert.match(waiter.out.stderr, /did not come back within 1000 ms.*\[daemon_unreachable\]/s);
    } finally {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
