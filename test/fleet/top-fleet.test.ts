import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectFleet, localHost, type Fleet } from '../../src/client/index.ts';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { CORRAL_BIN, makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { OFFLINE_WITHIN_MS, startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';
import { waitFor, waitForText } from '../../harness/wait.ts';
import { runCli } from '../helpers/cli.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 60_000;

describe('corral top --fleet: the live view of this machine and two hosts, each behind its own sshd on localhost', () => {
  let local: DaemonProcess;
  let box1: FleetHost;
  let box2: FleetHost;
  let config: string;
  let fleet: Fleet;

  before(async () => {
    [local, box1, box2] = await Promise.all([startDaemon(), startFleetHost('box1'), startFleetHost('box2')]);
    config = makeTempDir('corral-top-fleet-');
    mkdirSync(join(config, 'corral'));
    writeFileSync(join(config, 'corral', 'config.toml'), `${box1.toml}\n${box2.toml}`);
    fleet = await connectFleet([localHost(local.socket), box1.spec, box2.spec], { reconnect: { initialMs: 100, maxMs: 500 } });
    const agent = { command: process.execPath, args: [FAKE_AGENT], env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300' } };
    await fleet.callOn('local', 'pane.spawn', { ...agent, name: 'home', cwd: local.dir });
    await fleet.callOn('box1', 'pane.spawn', { ...agent, name: 'north', cwd: box1.daemon.dir });
    await fleet.callOn('box2', 'pane.spawn', { ...agent, name: 'south', cwd: box2.daemon.dir });
    await fleet.wait({ targets: ['home', 'north@box1', 'south@box2'], until: ['idle'], mode: 'all', timeoutMs: STEP_MS });
  });

  after(async () => {
    fleet?.close();
    await Promise.all([local?.dispose(), box1?.dispose(), box2?.dispose()]);
  });

  /** `corral top --fleet` in a tmux session of its own, 100 columns wide; `[fleet]` comes from the config above. */
  function topInTmux() {
    const server = `corral-top-fleet-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', server, '-f', '/dev/null', ...args], { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-t', 'top');
    const waitScreen = (pattern: RegExp, what: string, timeoutMs = STEP_MS) => waitForText(screen, pattern, { timeoutMs, what });
    const env = ['env', '-u', 'CORRAL_HOST', '-u', 'CORRAL_SSH', `XDG_CONFIG_HOME=${config}`, `XDG_STATE_HOME=${makeTempDir('corral-state-')}`, `CORRAL_SOCKET=${local.socket}`];
    const command = [...env, process.execPath, CORRAL_BIN, 'top', '--fleet'].map((word) => `'${word}'`).join(' ');
    tmux('new-session', '-d', '-s', 'top', '-x', '100', '-y', '16', `${command}; echo EXIT=$?; sleep 60`);
    const dispose = () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    };
    return { tmux, screen, waitScreen, dispose };
  }

  it('spans the fleet by [fleet] by_default, as the other fleet commands do, and --no-fleet keeps it to this machine', async () => {
    const byDefault = makeTempDir('corral-top-fleet-default-');
    mkdirSync(join(byDefault, 'corral'));
    writeFileSync(join(byDefault, 'corral', 'config.toml'), `${box1.toml}\n${box2.toml}\n[fleet]\nby_default = true\n`);
    const env = { ...process.env, XDG_CONFIG_HOME: byDefault, XDG_STATE_HOME: makeTempDir('corral-state-'), CORRAL_SOCKET: local.socket, CORRAL_HOST: undefined, CORRAL_SSH: undefined };
    const ids = async (...args: string[]) => {
      const result = await runCli(['--json', 'top', '--once', ...args], { env, timeoutMs: STEP_MS });
      assert.equal(result.code, 0, result.stderr);
      return (JSON.parse(result.stdout) as { id: string }[]).map((row) => row.id).sort();
    };
    assert.deepEqual(await ids(), ['w1:p1@box1', 'w1:p1@box2', 'w1:p1@local']);
    assert.deepEqual(await ids('--no-fleet'), ['w1:p1']);
    // As text, the live view's frame: grouped by host, each with its rollup.
    const frame = await runCli(['top', '--once', '--cols', '80'], { env, timeoutMs: STEP_MS });
    assert.equal(frame.code, 0, frame.stderr);
    assert.match(frame.stdout, /^corral top: 3 agents on 3 hosts/);
    assert.match(frame.stdout, /^local: connected; 1 \w+.*\n.* home .*\nbox1: connected; 1 \w+.*\n.* north .*\nbox2: connected; 1 \w+.*\n.* south /m);
  });

  it('shows every host with its rollup, acts on the right host, marks a host that went away stale, and fills it in again when it is back', async () => {
    const { tmux, waitScreen, dispose } = topInTmux();
    const keys = (...names: string[]) => tmux('send-keys', '-t', 'top', ...names);
    try {
      const first = await waitScreen(/^box2: connected; .*\n.* south /m, 'the first frame with every host');
      assert.match(first, /^corral top: 3 agents on 3 hosts/m);
      for (const [host, name] of [['local', 'home'], ['box1', 'north'], ['box2', 'south']]) {
        assert.match(first, new RegExp(`^${host}: connected; 1 (idle|done).*\\n.* ${name} `, 'm'), `${name} under ${host}`);
      }

      // A pane of this machine attaches as in the one-host view; one of another host says how instead.
      keys('Enter');
      await waitScreen(/\? for shortcuts/, "the local agent's own screen");
      keys('C-\\');
      await waitScreen(/\[detached from w1:p1 \(home\); it keeps running\]/, 'back in top');
      keys('j', 'a');
      const hint = (await waitScreen(/w1:p1@box1 is on another host/, 'how to attach a pane of box1')).split('\n').join(' ');
      assert.ok(hint.includes('`corral --host box1 attach w1:p1`'), hint);

      // Blocked on box2, then box2 goes away: its agent keeps its last known state, stale, never idle.
      await fleet.call('agent.prompt', { target: 'south@box2', text: 'perm' });
      await waitScreen(/^\*blocked .* south /m, 'south blocked');
      await box2.sshd.halt();
      const away = await waitScreen(/^box2: (offline|connecting) \d+s; 1 blocked, 1 stale, 1 needs you\n {2}host box2 \(.+\): ssh /m, 'box2 offline, since when and why', OFFLINE_WITHIN_MS);
      assert.match(away, /^\*blocked .* south .*\(stale\)/m);
      assert.match(away, /^box1: connected; /m);

      // The other host goes on: north works and is done on screen, and f marks it seen on box1.
      await fleet.call('agent.prompt', { target: 'north@box1', text: 'write the tests' });
      await waitScreen(/^\*done .* north /m, 'north done while box2 is away');
      keys('f');
      await waitScreen(/marked w1:p1@box1 seen/, 'f on north acts on box1');
      await waitScreen(/^ idle .* north /m, 'north idle once seen');
      keys('j', 'f');
      await waitScreen(/host box2 is (offline|connecting) since/, 'f on south says its host is away');

      // Back: box2 fills in again from its stream, live.
      await box2.sshd.resume();
      const back = await waitScreen(/^box2: connected; 1 blocked, 1 needs you\s*$/m, 'box2 connected again');
      assert.doesNotMatch(back, /\(stale\)/);
      // The test's own link to box2 reconnects in its own time, which may be after top's.
      await waitFor(() => fleet.host('box2').status().state === 'connected', { what: "the test's link to box2 back", timeoutMs: STEP_MS });
      await fleet.call('agent.answer', { target: 'south@box2', choice: 1 });
      await waitScreen(/^\*done .* south /m, "south done, from box2's events").catch(async (error: Error) => {
        // Which side fell behind: box2's agent, or top's view of it.
        const south = await fleet.callOn('box2', 'agent.get', { target: 'south' }).then((info) => `${info.state} since ${new Date(info.stateSince).toISOString()}`, (failure: Error) => failure.message);
        throw new Error(`${error.message}\nsouth on box2 at ${new Date().toISOString()}: ${south}`);
      });

      keys('q');
      assert.match(await waitScreen(/EXIT=\d+/, 'top quitting'), /EXIT=0/);
    } finally {
      dispose();
    }
  });
});
