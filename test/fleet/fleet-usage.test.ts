// `corral usage --fleet` sums what each host's agents spent (docs/usage.md), two hosts each reached
// through its own sshd on localhost, each agent writing its transcript as Claude Code does.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectFleet, localHost, type Fleet } from '../../src/client/index.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';
import { waitFor } from '../../harness/wait.ts';
import { runCli } from '../helpers/cli.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 90_000;
/** One turn of fake-claude.mjs with FAKE_TRANSCRIPT: 1000 in, 200 out, 300 cache read, 50 cache write. */
const TURN = { input: 1000, output: 200, cacheRead: 300, cacheWrite: 50 };

describe('usage across a fleet', () => {
  let local: DaemonProcess;
  let box1: FleetHost;
  let box2: FleetHost;
  let env: NodeJS.ProcessEnv;
  let fleet: Fleet;

  before(async () => {
    [local, box1, box2] = await Promise.all([startDaemon(), startFleetHost('box1'), startFleetHost('box2')]);
    const config = makeTempDir('corral-fleet-usage-');
    mkdirSync(join(config, 'corral'));
    writeFileSync(join(config, 'corral', 'config.toml'), `${box1.toml}\n${box2.toml}`);
    env = { ...process.env, XDG_CONFIG_HOME: config, CORRAL_SOCKET: local.socket, CORRAL_HOST: undefined, CORRAL_SSH: undefined };
    fleet = await connectFleet([localHost(local.socket), box1.spec, box2.spec], { reconnect: { initialMs: 100, maxMs: 500 } });
    for (const box of [box1, box2]) {
      const agentEnv = { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '200', FAKE_HOOKS: '1', FAKE_TRANSCRIPT: join(box.daemon.dir, 'transcript.jsonl') };
      await fleet.callOn(box.name, 'pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: `spender-${box.name}`, cwd: box.daemon.dir, env: agentEnv });
    }
    await fleet.wait({ targets: ['spender-box1@box1', 'spender-box2@box2'], until: ['idle'], mode: 'all', timeoutMs: 60_000 });
    for (const box of [box1, box2]) {
      await fleet.callOn(box.name, 'agent.prompt', { target: `spender-${box.name}`, text: 'spend' });
      await waitFor(async () => {
        const usage = (await fleet.callOn(box.name, 'agent.get', { target: `spender-${box.name}` })).usage;
        return typeof usage === 'object' && usage.tokens.input === TURN.input;
      }, { what: `the turn's usage on ${box.name}`, timeoutMs: STEP_MS });
    }
  });

  after(async () => {
    fleet?.close();
    await Promise.all([local?.dispose(), box1?.dispose(), box2?.dispose()]);
  });

  const cli = (...args: string[]) => runCli(args, { env, timeoutMs: STEP_MS });

  it('sums each host, and lists each agent with its host', async () => {
    const byHost = await cli('usage', '--fleet', '--by', 'host', '--json');
    assert.equal(byHost.code, 0, byHost.stderr);
    const hosts = JSON.parse(byHost.stdout);
    assert.deepEqual(hosts.rows.map((row: any) => [row.label, row.tokens]), [['local', { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }], ['box1', TURN], ['box2', TURN]]);
    assert.deepEqual(hosts.hosts.map((host: any) => [host.host, host.reason]), [['local', null], ['box1', null], ['box2', null]]);
    const byAgent = JSON.parse((await cli('usage', '--fleet', '--json')).stdout);
    assert.deepEqual(byAgent.rows.map((row: any) => [row.host, row.label, row.tokens]), [['box1', 'spender-box1', TURN], ['box2', 'spender-box2', TURN]]);
    const table = await cli('usage', '--fleet');
    assert.match(table.stdout, /HOST\s+AGENT\s+INPUT/);
    assert.match(table.stdout, /box2\s+spender-box2\s+1\.0k\s+200\s+300\s+50/);
  });
});
