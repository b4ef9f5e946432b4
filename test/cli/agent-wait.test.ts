import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PANE_KILL, SERVER_STATUS } from '../../src/protocol/methods/index.ts';
import { runCli } from '../helpers/cli.ts';
import { waitFor } from '../../harness/wait.ts';
import { AgentLab } from '../helpers/agent-lab.ts';

describe('corral agent wait, list, read and focus through the CLI', () => {
  let lab: AgentLab;
  const corral = (...args: string[]) => runCli(['--socket', lab.daemon.socket, ...args]);

  before(async () => {
    lab = await AgentLab.start();
    await Promise.all([lab.agent('one', 200), lab.agent('two', 200)]);
  });

  after(async () => {
    await lab?.dispose();
  });

  it('exits 0 on a match and prints each target with its state', async () => {
    const result = await corral('agent', 'wait', 'one', 'two', '--until', 'idle', '--all');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^one: (idle|done)\ntwo: (idle|done)\n$/);
  });

  it('waits past the idle before a prompt with --since-seq taken from agent list --json', async () => {
    const list = await corral('agent', 'list', '--json');
    const { seq } = JSON.parse(list.stdout) as { seq: number };
    await lab.type('one', 'job');
    const result = await corral('agent', 'wait', 'one', '--since-seq', String(seq), '--until', 'idle', '--timeout', '120000', '--json');
    assert.equal(result.code, 0, result.stderr);
    const parsed = JSON.parse(result.stdout);
    assert.deepEqual(parsed.matched, ['one']);
    assert.deepEqual(parsed.states, { one: 'done' });
    assert.ok(parsed.seq > seq);
  });

  it('lists agents in a table with state and age, and a workspace rollup', async () => {
    const result = await corral('agent', 'list');
    assert.equal(result.code, 0, result.stderr);
    const [header, ...rest] = result.stdout.trimEnd().split('\n');
    assert.match(header!, /^ID\s+NAME\s+AGENT\s+STATE\s+TITLE$/);
    assert.ok(rest.some((line) => /^w1:p\d+\s+one\s+claude\s+done \d+(ms|s)\s+✳ Fake Agent$/.test(line)), result.stdout);
    assert.equal(rest.at(-1), 'w1: done (1 idle, 1 done)');
  });

  it('reads what detection reads without marking the pane seen, then focus turns done into idle', async () => {
    const read = await corral('agent', 'read', 'one', '--source', 'detection', '--json');
    assert.equal(read.code, 0, read.stderr);
    assert.match(JSON.parse(read.stdout).text, /Task complete\./);
    const still = await corral('agent', 'wait', 'one', '--until', 'done', '--timeout', '0');
    assert.equal(still.code, 0, 'still done after the read');
    const focused = await corral('pane', 'focus', 'one');
    assert.equal(focused.code, 0, focused.stderr);
    assert.match(focused.stdout, /\(one\): idle/);
    const agentFocus = await corral('agent', 'focus', 'one', '--json');
    assert.equal(JSON.parse(agentFocus.stdout).state, 'idle');
  });

  it('exits 124 on timeout and still prints the result object on stdout with --json', async () => {
    const result = await corral('agent', 'wait', 'two', '--until', 'blocked', '--timeout', '150', '--json');
    assert.equal(result.code, 124);
    const parsed = JSON.parse(result.stdout);
    assert.deepEqual(parsed.matched, []);
    assert.ok(['idle', 'done'].includes(parsed.states.two));
    assert.equal(typeof parsed.seq, 'number');
    assert.ok(parsed.elapsedMs >= 140);
    assert.equal(JSON.parse(result.stderr).error.code, 'timeout');
  });

  it('exits 5, not the 3 of a missing pane, when the target pane is killed while waiting', async () => {
    await lab.agent('doomed', 200);
    const { waits } = await lab.call(SERVER_STATUS, {});
    const waiting = corral('agent', 'wait', 'doomed', '--until', 'blocked', '--json');
    // Kill only once the wait is registered: before it, the CLI would meet an unknown pane instead.
    await waitFor(async () => (await lab.call(SERVER_STATUS, {})).waits > waits, { what: 'the wait registered', timeoutMs: 60_000 });
    await lab.call(PANE_KILL, { target: 'doomed' });
    const result = await waiting;
    assert.equal(result.code, 5, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout).gone, ['doomed']);
    assert.equal(JSON.parse(result.stderr).error.code, 'agent_gone');
  });

  it('asks the daemon over one connection, the protocol check and the wait together', async () => {
    // A relay in front of the daemon's socket counts the connections the command opens.
    const relaySocket = join(lab.daemon.dir, 'relay.sock');
    let connections = 0;
    const relay = createServer((client) => {
      connections += 1;
      const upstream = connect(lab.daemon.socket);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(relaySocket, resolve));
    try {
      const result = await runCli(['--socket', relaySocket, 'agent', 'wait', 'one', '--until', 'idle,done', '--timeout', '0']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(connections, 1);
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('exits 4 when no daemon answers, and 2 on a bad flag', async () => {
    const unreachable = await runCli(['--socket', join(lab.daemon.dir, 'nobody.sock'), 'agent', 'wait', 'one']);
    assert.equal(unreachable.code, 4);
    assert.match(unreachable.stderr, /nobody\.sock/);
    assert.equal((await corral('agent', 'wait', 'one', '--any', '--all')).code, 2);
    assert.equal((await corral('agent', 'wait', 'one', '--until', 'asleep')).code, 2);
  });
});
