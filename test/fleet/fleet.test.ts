import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectFleet, DaemonConnection, localHost, type Fleet, type FleetEvent } from '../../src/client/index.ts';
import { EVENTS_READ } from '../../src/protocol/methods/events.ts';
import { PANE_SPAWN } from '../../src/protocol/methods/pane.ts';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { OFFLINE_WITHIN_MS, startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';
import { waitFor } from '../../harness/wait.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 90_000;

describe('a fleet: this machine and two more, each reached through its own sshd on localhost', () => {
  let local: DaemonProcess;
  let box1: FleetHost;
  let box2: FleetHost;
  let env: NodeJS.ProcessEnv;
  let fleet: Fleet;

  before(async () => {
    [local, box1, box2] = await Promise.all([startDaemon(), startFleetHost('box1'), startFleetHost('box2')]);
    const config = makeTempDir('corral-fleet-');
    mkdirSync(join(config, 'corral'));
    writeFileSync(join(config, 'corral', 'config.toml'), `${box1.toml}\n${box2.toml}`);
    env = { ...process.env, XDG_CONFIG_HOME: config, XDG_STATE_HOME: makeTempDir('corral-state-'), CORRAL_SOCKET: local.socket, CORRAL_HOST: undefined, CORRAL_SSH: undefined };
    fleet = await connectFleet([localHost(local.socket), box1.spec, box2.spec], { reconnect: { initialMs: 100, maxMs: 500 } });
    const agent = { command: process.execPath, args: [FAKE_AGENT], env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300' } };
    await fleet.callOn('box1', 'pane.spawn', { ...agent, name: 'north', cwd: box1.daemon.dir });
    await fleet.callOn('box2', 'pane.spawn', { ...agent, name: 'south', cwd: box2.daemon.dir });
    await fleet.wait({ targets: ['north@box1', 'south@box2'], until: ['idle'], mode: 'all', timeoutMs: 60_000 });
  });

  after(async () => {
    fleet?.close();
    await Promise.all([local?.dispose(), box1?.dispose(), box2?.dispose()]);
  });

  const cli = (...args: string[]) => runCli(args, { env, timeoutMs: STEP_MS });

  it('lists every host and its agents in one view, with one "needs you" count', async () => {
    const hosts = await cli('host', 'list', '--json');
    assert.equal(hosts.code, 0, hosts.stderr);
    const listed = JSON.parse(hosts.stdout) as { hosts: { name: string; state: string }[]; fleet: { needsYou: number } };
    assert.deepEqual(listed.hosts.map((h) => [h.name, h.state]), [['local', 'connected'], ['box1', 'connected'], ['box2', 'connected']]);

    const agents = await cli('agent', 'list', '--fleet', '--json');
    assert.equal(agents.code, 0, agents.stderr);
    const list = JSON.parse(agents.stdout) as { agents: { host: string; name: string; state: string; stale: boolean }[]; hosts: { name: string; counts: Record<string, number> }[]; fleet: { counts: Record<string, number>; needsYou: number } };
    assert.deepEqual(list.agents.map((a) => [a.host, a.name, a.stale]), [['box1', 'north', false], ['box2', 'south', false]]);
    // A fresh agent is idle, or done until someone looks at it: done needs you, idle does not.
    for (const a of list.agents) assert.ok(['idle', 'done'].includes(a.state), `${a.name}: ${a.state}`);
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);
    assert.deepEqual(list.hosts.map((h) => [h.name, total(h.counts)]), [['local', 0], ['box1', 1], ['box2', 1]]);
    assert.equal(list.fleet.needsYou, list.agents.filter((a) => a.state === 'done').length);
    assert.equal(list.fleet.counts.idle + list.fleet.counts.done, 2);

    const top = await cli('top', '--once', '--fleet', '--json');
    assert.equal(top.code, 0, top.stderr);
    assert.deepEqual((JSON.parse(top.stdout) as { id: string; name: string }[]).map((row) => `${row.name} ${row.id}`).sort(), ['north w1:p1@box1', 'south w1:p1@box2']);

    const events = await cli('events', '--fleet', '--json', '--filter', 'kind:pane.created');
    assert.equal(events.code, 0, events.stderr);
    const created = events.stdout.trim().split('\n').map((line) => JSON.parse(line) as { host: string; pane: { name: string } });
    assert.deepEqual(created.map((e) => `${e.pane.name}@${e.host}`).sort(), ['north@box1', 'south@box2']);
  });

  it('waits across both hosts, and answers a blocked agent on the second from here', async () => {
    const { seq } = JSON.parse((await cli('agent', 'list', '--fleet', '--json')).stdout) as { seq: Record<string, number> };
    const since = `box1=${seq.box1},box2=${seq.box2}`;
    assert.equal((await cli('agent', 'prompt', 'north@box1', 'write the parser')).code, 0);
    const asked = await cli('agent', 'prompt', 'south@box2', 'perm');
    assert.equal(asked.code, 0, asked.stderr);

    const blocked = await cli('agent', 'wait', 'south@box2', '--until', 'blocked', '--since-seq', since, '--timeout', '60000', '--json');
    assert.equal(blocked.code, 0, blocked.stderr);
    assert.deepEqual(JSON.parse(blocked.stdout).states, { 'south@box2': 'blocked' });
    const needs = JSON.parse((await cli('agent', 'list', '--fleet', '--json')).stdout) as { fleet: { needsYou: number } };
    assert.ok(needs.fleet.needsYou >= 1, 'the blocked agent needs you');

    const answered = await cli('agent', 'answer', 'south@box2', '1');
    assert.equal(answered.code, 0, answered.stderr);
    const done = await cli('agent', 'wait', 'north@box1', 'south@box2', '--all', '--until', 'done', '--since-seq', since, '--timeout', '60000', '--json');
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(JSON.parse(done.stdout).states, { 'north@box1': 'done', 'south@box2': 'done' });

    // MCP's tools take the same targets, and list_fleet is the one view.
    const mcp = new Client({ name: 'corral-test', version: '1.0.0' });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CORRAL_BIN, 'mcp'], env: env as Record<string, string>, stderr: 'pipe' }));
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await mcp.callTool({ name, arguments: args }, undefined, { timeout: STEP_MS })) as { isError?: boolean; content: { text: string }[] };
        assert.ok(!result.isError, `${name}: ${result.content[0]?.text}`);
        return JSON.parse(result.content[0]!.text);
      };
      const viewed = await call('list_fleet', {});
      assert.deepEqual(viewed.hosts.map((h: { name: string; state: string }) => [h.name, h.state]), [['local', 'connected'], ['box1', 'connected'], ['box2', 'connected']]);
      assert.deepEqual(viewed.agents.map((a: { host: string; name: string }) => `${a.name}@${a.host}`), ['north@box1', 'south@box2']);
      const read = await call('read_agent', { target: 'south@box2' });
      assert.equal(typeof read.text, 'string');
    } finally {
      await mcp.close();
    }

    // An unknown host is "not found" (3), as an unknown pane is.
    const nowhere = await cli('agent', 'get', 'north@nowhere');
    assert.equal(nowhere.code, 3);
    assert.match(nowhere.stderr, /no host is named "nowhere" \(known: local, box1, box2\)/);
  });

  it('shows a host that went away offline and its agents stale, the others go on, and back it delivers what it missed once', async () => {
    const seen: FleetEvent[] = [];
    const subscription = fleet.subscribe({}, (event) => seen.push(event));
    const before = fleet.hosts().find((h) => h.name === 'box2')!.cursor!.cursor;

    await box2.sshd.halt();
    await waitFor(() => fleet.hosts().find((h) => h.name === 'box2')!.state === 'offline', { timeoutMs: OFFLINE_WITHIN_MS, what: `box2 offline within ${OFFLINE_WITHIN_MS} ms` });
    const away = await fleet.list();
    const south = away.agents.find((a) => a.host === 'box2')!;
    assert.deepEqual([south.name, south.state, south.stale], ['south', 'done', true], 'the last known state, marked stale');
    assert.equal(away.hosts.find((h) => h.name === 'box2')!.state, 'offline');
    assert.match(away.hosts.find((h) => h.name === 'box2')!.reason ?? '', /box2/);
    await assert.rejects(fleet.call('agent.get', { target: 'south@box2' }), /host box2 is (offline|connecting) since/);

    // The other host's waits and events go on meanwhile.
    const { seq } = await fleet.callOn('box1', 'agent.list', {});
    await fleet.call('agent.prompt', { target: 'north@box1', text: 'write the tests' });
    const waited = await fleet.wait({ targets: ['north@box1'], until: ['done'], sinceSeq: { box1: seq }, timeoutMs: 60_000 });
    assert.deepEqual(waited.states, { 'north@box1': 'done' });
    await waitFor(() => seen.some((e) => e.host === 'box1' && e.kind === 'agent.stateChanged' && e.data.to === 'done'), { timeoutMs: STEP_MS, what: "box1's events" });

    // box2's daemon runs on while no one can reach it: what it records then is missed, until the host is back.
    const direct = await DaemonConnection.connect(box2.daemon.socket);
    try {
      await direct.call(PANE_SPAWN, { command: '/bin/sh', args: ['-c', 'sleep 60'], name: 'while-away', cwd: box2.daemon.dir });
      await box2.sshd.resume();
      await waitFor(() => seen.some((e) => e.host === 'box2' && e.kind === 'pane.created' && e.pane?.name === 'while-away'), { timeoutMs: STEP_MS, what: 'the missed pane.created from box2' });
      await waitFor(() => fleet.hosts().find((h) => h.name === 'box2')!.state === 'connected', { timeoutMs: STEP_MS, what: 'box2 connected again' });

      // Exactly what box2 holds after the cursor the fleet had when it went away: nothing lost, nothing twice.
      const held = (await direct.call(EVENTS_READ, { since: before, limit: 1000 })).events.map((e) => e.cursor);
      const last = held.at(-1)!;
      await waitFor(() => seen.some((e) => e.host === 'box2' && e.cursor >= last), { timeoutMs: STEP_MS, what: `box2's events up to ${last}` });
      const got = seen.filter((e) => e.host === 'box2').map((e) => e.cursor);
      assert.deepEqual(got.filter((cursor) => cursor <= last), held);
      assert.equal(new Set(got).size, got.length);
      assert.equal(seen.filter((e) => e.host === 'box2' && e.kind === 'pane.created').length, 1);
    } finally {
      direct.dispose();
      subscription.dispose();
    }
  });
});
