import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';
import { startSshd, type LocalSshd } from '../../harness/sshd.ts';
import { startFleetHost, type FleetHost } from '../../harness/fleet-host.ts';

/** One `[[agents]]` table of the fake Claude, as TOML lines. */
function fakeAgent(name: string, extra: string[] = []): string {
  return [
    '[[agents]]',
    `name = "${name}"`,
    `command = [${JSON.stringify(process.execPath)}, ${JSON.stringify(FAKE_CLAUDE)}]`,
    'env = { CORRAL_AGENT = "claude", FAKE_WORK_MS = "200" }',
    ...extra,
    '',
  ].join('\n');
}

describe('corral up and down with agents here and on a host reached through ssh (a throwaway sshd on localhost)', () => {
  let sshd: LocalSshd;
  let here: DaemonProcess;
  let there: DaemonProcess;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  before(async () => {
    sshd = await startSshd();
    [here, there] = await Promise.all([startDaemon(), startDaemon()]);
    dir = join(here.dir, 'project');
    mkdirSync(dir);
    // The corral on the host reaches its own daemon, the second one, through --socket.
    env = { ...process.env, CORRAL_SSH: sshd.sshCommand, CORRAL_REMOTE_COMMAND: `${process.execPath} ${CORRAL_BIN} --socket ${there.socket}`, CORRAL_HOST: undefined };
  });

  after(async () => {
    await here?.dispose();
    await there?.dispose();
    await sshd?.stop();
  });

  const corral = (...args: string[]) => runCli(['--socket', here.socket, '--json', ...args], { env, cwd: dir, timeoutMs: 180_000 });
  const panesOf = async (daemon: DaemonProcess): Promise<string[]> => {
    const { call, client } = await connectCalling(daemon);
    try {
      return (await call('pane.list')).panes.filter((p: any) => p.state === 'running').map((p: any) => p.name).sort();
    } finally {
      client.close();
    }
  };
  const actions = (stdout: string): Record<string, string> =>
    Object.fromEntries(JSON.parse(stdout).agents.map((o: { name: string; host: string | null; action: string }) => [`${o.name}@${o.host ?? '-'}`, o.action]));

  it('starts each agent where the file says, changes nothing the second time, and down ends them all', async () => {
    const user = userInfo().username;
    writeFileSync(
      join(dir, 'corral.toml'),
      fakeAgent('local-one', ['prompt = "write the parser"']) +
        fakeAgent('far-one', [`host = "${sshd.host}"`, `cwd = ${JSON.stringify(there.dir)}`, 'prompt = "write the tests"']) +
        fakeAgent('far-two', [`host = "${user}@${sshd.host}"`, `cwd = ${JSON.stringify(there.dir)}`]),
    );
    const first = await corral('up', '--wait', 'idle', '--timeout', '120s');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(actions(first.stdout), { 'local-one@-': 'started', [`far-one@${sshd.host}`]: 'started', [`far-two@${user}@${sshd.host}`]: 'started' });
    const prompted = JSON.parse(first.stdout).agents.filter((o: { prompted?: true }) => o.prompted).map((o: { name: string }) => o.name);
    assert.deepEqual(prompted, ['local-one', 'far-one']);
    assert.deepEqual(await panesOf(here), ['local-one']);
    assert.deepEqual(await panesOf(there), ['far-one', 'far-two']);

    const second = await corral('up', '--wait', 'idle', '--timeout', '120s');
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(actions(second.stdout), { 'local-one@-': 'unchanged', [`far-one@${sshd.host}`]: 'unchanged', [`far-two@${user}@${sshd.host}`]: 'unchanged' });
    assert.ok(JSON.parse(second.stdout).agents.every((o: { prompted?: true }) => o.prompted === undefined), 'no prompt typed again');

    const down = await corral('down');
    assert.equal(down.code, 0, down.stderr);
    assert.deepEqual(actions(down.stdout), { 'local-one@-': 'ended', [`far-one@${sshd.host}`]: 'ended', [`far-two@${user}@${sshd.host}`]: 'ended' });
    assert.deepEqual(await panesOf(here), []);
    assert.deepEqual(await panesOf(there), []);
  });

  it('says a host it cannot reach is unreachable (exit 4) and still brings up the agents here', async () => {
    writeFileSync(join(dir, 'corral.toml'), fakeAgent('local-two') + fakeAgent('lost-one', ['host = "nobody@127.0.0.1"']));
    const result = await runCli(['--socket', here.socket, '--json', 'up'], {
      env: { ...env, CORRAL_SSH: 'ssh -o ConnectTimeout=5 -o Port=1 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null' },
      cwd: dir,
      timeoutMs: 60_000,
    });
    assert.equal(result.code, 4, result.stderr);
    assert.deepEqual(actions(result.stdout), { 'local-two@-': 'started', 'lost-one@nobody@127.0.0.1': 'failed' });
    assert.match(JSON.parse(result.stdout).agents[1].error.message, /ssh could not reach nobody@127\.0\.0\.1/);
    assert.equal((await runCli(['--socket', here.socket, 'pane', 'kill', 'local-two'])).code, 0);
  });
});

describe('a host named in [[hosts]] is its whole entry (ssh, ssh_options, command, socket) in corral up and --host', () => {
  let box: FleetHost;
  let here: DaemonProcess;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  before(async () => {
    // box2 is reached only with its entry: its ssh_options (-F: the port and key of a throwaway sshd), its
    // command (corral is on no PATH there) and its socket (no daemon listens at the default one).
    [box, here] = await Promise.all([startFleetHost('box2'), startDaemon()]);
    dir = join(here.dir, 'project');
    mkdirSync(join(here.dir, 'config', 'corral'), { recursive: true });
    mkdirSync(dir);
    writeFileSync(join(here.dir, 'config', 'corral', 'config.toml'), box.toml);
    env = { ...process.env, XDG_CONFIG_HOME: join(here.dir, 'config'), CORRAL_SSH: undefined, CORRAL_REMOTE_COMMAND: undefined, CORRAL_HOST: undefined };
  });

  after(async () => {
    await here?.dispose();
    await box?.dispose();
  });

  const corral = (...args: string[]) => runCli(['--socket', here.socket, ...args], { env, cwd: dir, timeoutMs: 180_000 });

  it('corral --host box2 reaches the daemon its entry names', async () => {
    const status = await runCli(['--host', 'box2', '--json', 'server', 'status'], { env, timeoutMs: 90_000 });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).pid, box.daemon.pid);
  });

  it('corral up starts an agent with host = "box2" on that daemon, and down ends it', async () => {
    writeFileSync(join(dir, 'corral.toml'), fakeAgent('boxed', ['host = "box2"', `cwd = ${JSON.stringify(box.daemon.dir)}`]));
    const up = await corral('--json', 'up', '--wait', 'idle', '--timeout', '120s');
    assert.equal(up.code, 0, up.stderr);
    assert.deepEqual(JSON.parse(up.stdout).agents.map((o: { name: string; host: string; action: string; state: string }) => [o.name, o.host, o.action, o.state]), [['boxed', 'box2', 'started', 'idle']]);
    const listed = await runCli(['--host', 'box2', '--json', 'agent', 'list'], { env, timeoutMs: 90_000 });
    assert.deepEqual(JSON.parse(listed.stdout).agents.map((a: { name: string }) => a.name), ['boxed']);
    const down = await corral('--json', 'down');
    assert.equal(down.code, 0, down.stderr);
    assert.deepEqual(JSON.parse(down.stdout).agents.map((o: { action: string }) => o.action), ['ended']);
  });
});
