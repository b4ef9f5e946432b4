import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectFleet, lastSeenPath, localHost, type Fleet } from '../../src/client/index.ts';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 90_000;

interface ListedAgent {
  host: string;
  name: string;
  state: string;
  stale: boolean;
  lastSeen?: number;
  prompt?: { kind: string };
}

describe("one-shot commands keep an offline host's agents, stale, from what an earlier command saw", () => {
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
    fleet = await connectFleet([localHost(local.socket), box1.spec, box2.spec]);
    const agent = { command: process.execPath, args: [FAKE_AGENT], env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300' } };
    await fleet.callOn('box1', 'pane.spawn', { ...agent, name: 'north', cwd: box1.daemon.dir });
    await fleet.callOn('box2', 'pane.spawn', { ...agent, name: 'south', cwd: box2.daemon.dir });
    await fleet.wait({ targets: ['north@box1', 'south@box2'], until: ['idle'], mode: 'all', timeoutMs: 60_000 });
    await fleet.call('agent.prompt', { target: 'south@box2', text: 'perm' });
    await fleet.wait({ targets: ['south@box2'], until: ['blocked'], timeoutMs: 60_000 });
    fleet.close();
  });

  after(async () => {
    fleet?.close();
    await Promise.all([local?.dispose(), box1?.dispose(), box2?.dispose()]);
  });

  const cli = (...args: string[]) => runCli(args, { env, timeoutMs: STEP_MS });

  it('agent list --fleet and host list show the host offline with its blocked agent stale and when it was last seen', async () => {
    const seen = await cli('agent', 'list', '--fleet', '--json');
    assert.equal(seen.code, 0, seen.stderr);
    const live = (JSON.parse(seen.stdout) as { agents: ListedAgent[] }).agents;
    assert.deepEqual(live.map((a) => [a.host, a.name, a.state, a.stale]), [['box1', 'north', 'idle', false], ['box2', 'south', 'blocked', false]]);
    assert.equal(statSync(lastSeenPath(local.socket, env)).mode & 0o777, 0o600, 'what it saw is kept for the next command, for its user only');
    const seenBy = Date.now();

    await box2.sshd.halt();
    const away = await cli('agent', 'list', '--fleet', '--json');
    assert.equal(away.code, 0, away.stderr);
    const list = JSON.parse(away.stdout) as { agents: ListedAgent[]; hosts: { name: string; state: string; stale: number; lastSeen: number | null; needsYou: number }[]; fleet: { needsYou: number } };
    const south = list.agents.find((a) => a.host === 'box2');
    assert.ok(south, `box2's agent is kept: ${away.stdout}`);
    assert.deepEqual([south.name, south.state, south.stale, south.prompt?.kind], ['south', 'blocked', true, 'permission'], 'its last known state and question, marked stale');
    assert.ok(typeof south.lastSeen === 'number' && south.lastSeen <= seenBy, 'when it was last seen');
    const box2Rollup = list.hosts.find((h) => h.name === 'box2')!;
    assert.deepEqual([box2Rollup.state, box2Rollup.stale, box2Rollup.needsYou, box2Rollup.lastSeen], ['offline', 1, 1, south.lastSeen]);
    assert.equal(list.fleet.needsYou, 1, 'the blocked agent still needs you');

    const table = await cli('agent', 'list', '--fleet');
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /box2\s+w1:p1\s+south\s+claude\s+blocked \S+ \(stale, last seen \S+ ago\)/);
    assert.match(table.stdout, /^box2: offline \S+ \(.+\); 1 blocked, 1 stale, last seen \S+ ago$/m);
    assert.match(table.stdout, /^fleet: 2 agents on 3 hosts, 1 need you$/m);

    const hosts = await cli('host', 'list');
    assert.equal(hosts.code, 0, hosts.stderr);
    assert.match(hosts.stdout, /^box2\s+\S+\s+1 \(stale, last seen \S+ ago\)\s+1\s+offline/m);
    const hostsJson = JSON.parse((await cli('host', 'list', '--json')).stdout) as { hosts: { name: string; lastSeen: number | null; rollup: { stale: number } }[] };
    const box2Host = hostsJson.hosts.find((h) => h.name === 'box2')!;
    assert.deepEqual([box2Host.lastSeen, box2Host.rollup.stale], [south.lastSeen, 1]);

    // An offline host's agents go on being shown by every later command, not only the next one.
    const again = JSON.parse((await cli('agent', 'list', '--fleet', '--json')).stdout) as { agents: ListedAgent[] };
    assert.deepEqual(again.agents.filter((a) => a.host === 'box2').map((a) => [a.name, a.stale, a.lastSeen]), [['south', true, south.lastSeen]]);

    // MCP's list_fleet, a fleet of its own per call, keeps them the same way.
    const mcp = new Client({ name: 'corral-test', version: '1.0.0' });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CORRAL_BIN, 'mcp'], env: env as Record<string, string>, stderr: 'pipe' }));
    try {
      const result = (await mcp.callTool({ name: 'list_fleet', arguments: {} }, undefined, { timeout: STEP_MS })) as { isError?: boolean; content: { text: string }[] };
      assert.ok(!result.isError, result.content[0]?.text);
      const viewed = JSON.parse(result.content[0]!.text) as { agents: ListedAgent[]; needsYou: number };
      assert.deepEqual(viewed.agents.filter((a) => a.host === 'box2').map((a) => [a.name, a.state, a.stale, a.lastSeen]), [['south', 'blocked', true, south.lastSeen]]);
      assert.equal(viewed.needsYou, 1);
    } finally {
      await mcp.close();
    }

    // Back, its agents are live again.
    await box2.sshd.resume();
    const back = JSON.parse((await cli('agent', 'list', '--fleet', '--json')).stdout) as { agents: ListedAgent[] };
    assert.deepEqual(back.agents.map((a) => [a.host, a.name, a.stale]), [['box1', 'north', false], ['box2', 'south', false]]);
  });
});
