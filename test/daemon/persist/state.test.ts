import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../helpers/cli.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling as connect, RawClient } from '../../../harness/raw-client.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { FAKE_CLAUDE } from '../../helpers/session.ts';
import { isAlive } from '../../../harness/proc.ts';
import { waitFor } from '../../../harness/wait.ts';

const REPORT_PROXY = fileURLToPath(new URL('../../fixtures/report-proxy.mjs', import.meta.url));

function stateFiles(dir: string): string[] {
  const folder = join(dir, 'state', 'corral');
  return readdirSync(folder).filter((name) => name.startsWith('panes-') && name.endsWith('.json')).map((name) => join(folder, name));
}

describe('state that survives the daemon', () => {
  it('keeps a pane registry in $XDG_STATE_HOME/corral, 0600, without secret environment keys', async () => {
    const dir = makeTempDir();
    const daemon = await startDaemon({ dir });
    try {
      const a = await connect(daemon);
      const pane = await a.call('pane.spawn', { command: 'sleep', args: ['100'], name: 'kept', cwd: dir, cols: 90, rows: 20, env: { PLAIN: 'yes', OPENAI_API_KEY: 'sk-1', GH_TOKEN: 'x', DB_PASSWORD: 'y' } });
      const [file] = stateFiles(dir);
      assert.ok(file, 'one state file');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(join(dir, 'state', 'corral')).mode & 0o777, 0o700);
      const stored = await waitFor(() => {
        const state = JSON.parse(readFileSync(file, 'utf8'));
        return state.panes.find((p: any) => p.id === pane.id);
      }, { what: 'the pane in the state file', timeoutMs: 60_000 });
      assert.deepEqual(
        [stored.name, stored.command, stored.args, stored.cwd, stored.cols, stored.rows, stored.pid, stored.state],
        ['kept', 'sleep', ['100'], dir, 90, 20, pane.pid, 'running'],
      );
      assert.deepEqual(stored.env, { PLAIN: 'yes' }, 'keys naming a key, token or password are dropped');
      assert.doesNotMatch(readFileSync(file, 'utf8'), /sk-1/);
      a.client.close();
    } finally {
      await daemon.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops secrets by key name and by value, and a respawn after the host is gone starts without them or with the daemon\'s own', async () => {
    const dir = makeTempDir();
    // The daemon's own environment has one of the keys, and `[panes] pass_env` names it: a respawn
    // passes that one on, as for any pane (docs/operations.md, "A pane's environment").
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    writeFileSync(join(dir, 'config', 'corral', 'config.toml'), '[panes]\npass_env = ["PGPASS"]\n');
    const daemonEnv = { PGPASS: 'from-the-daemon' };
    const first = await startDaemon({ dir, env: daemonEnv });
    let second: DaemonProcess | undefined;
    try {
      const a = await connect(first);
      const env = {
        PLAIN: 'yes',
        GIT_AUTHOR_NAME: 'A Person',
        DATABASE_URL: 'postgres://app:hunter2@db.internal:5432/app',
        PGPASS: 'pg-secret',
        OPENAI_KEY: 'plain-looking',
        UPSTREAM: 'ghp_0123456789abcdefghijABCDEFGHIJklmn',
      };
      const pane = await a.call('pane.spawn', { command: 'sleep', args: ['1000'], name: 'secretive', cwd: dir, env });
      const [file] = stateFiles(dir);
      const stored = await waitFor(() => JSON.parse(readFileSync(file!, 'utf8')).panes.find((p: any) => p.id === pane.id), { what: 'the pane in the state file', timeoutMs: 60_000 });
      assert.deepEqual(stored.env, { PLAIN: 'yes', GIT_AUTHOR_NAME: 'A Person' });
      assert.deepEqual(stored.droppedEnv, ['DATABASE_URL', 'PGPASS', 'OPENAI_KEY', 'UPSTREAM'], 'the names are kept, not the values');
      assert.doesNotMatch(readFileSync(file!, 'utf8'), /hunter2|pg-secret|plain-looking|ghp_/);
      a.client.close();

      process.kill(first.hostPids()[0]!, 'SIGKILL');
      await killDaemon(first);
      await waitFor(() => !isAlive(pane.pid), { what: 'the pane to die with its PTY', timeoutMs: 60_000 });

      second = await startDaemon({ dir, env: daemonEnv });
      const respawned = await runCli(['--socket', second.socket, 'pane', 'respawn', 'secretive', '--json']);
      assert.equal(respawned.code, 0, respawned.stderr);
      const info = JSON.parse(respawned.stdout);
      assert.equal(info.state, 'running');
      // The pid is known from the fork; the exec of sleep follows the start gate.
      await waitFor(() => readFileSync(`/proc/${info.pid}/cmdline`, 'utf8').startsWith('sleep'), { what: 'the respawned sleep to exec', timeoutMs: 60_000 });
      const environ = Object.fromEntries(readFileSync(`/proc/${info.pid}/environ`, 'utf8').split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      assert.deepEqual(
        [environ.PLAIN, environ.GIT_AUTHOR_NAME, environ.PGPASS, environ.DATABASE_URL, environ.OPENAI_KEY, environ.UPSTREAM],
        ['yes', 'A Person', 'from-the-daemon', undefined, undefined, undefined],
      );
      // Logged before the reply, but the daemon's stderr and the CLI's stdout are two pipes: wait for the line.
      const warning = await waitFor(() => second!.stderr().split('\n').find((line) => line.includes('without environment keys kept out of the state file')), { what: 'the log line naming the keys', timeoutMs: 60_000 });
      assert.deepEqual(JSON.parse(warning!).keys, ['DATABASE_URL', 'OPENAI_KEY', 'UPSTREAM'], 'the log names the keys the respawn could not pass');
    } finally {
      if (second) await second.dispose();
      await first.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('after kill -9 of the host and the daemon, lists panes as lost with their last state and session, and a respawn resumes the session', async () => {
    const dir = makeTempDir();
    const first = await startDaemon({ dir });
    let second: DaemonProcess | undefined;
    try {
      const a = await connect(first);
      const pane = await a.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name: 'agent', cwd: dir, cols: 100, rows: 30, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '200', FAKE_SESSION: 'sess-1234' } });
      // The agent reports its session from inside the pane, as its hook would (reports from outside are refused).
      await waitFor(async () => (await a.call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'the idle prompt box', timeoutMs: 60_000 });
      const [file] = stateFiles(dir);
      // The file is what the next daemon reads: wait for it to hold the idle state too. The session is
      // written with an earlier change, and the idle state's write follows the answer that showed it.
      await waitFor(() => {
        const stored = JSON.parse(readFileSync(file!, 'utf8')).panes[0];
        return stored?.session === 'sess-1234' && stored.agentState === 'idle';
      }, { what: 'the session and the idle state in the state file', timeoutMs: 60_000 });
      a.client.close();

      const [host] = first.hostPids();
      process.kill(host!, 'SIGKILL');
      await killDaemon(first);
      await waitFor(() => !isAlive(pane.pid), { what: 'the agent to die with its PTY', timeoutMs: 60_000 });

      second = await startDaemon({ dir });
      const b = await connect(second);
      const [lost] = (await b.call('pane.list')).panes;
      assert.deepEqual([lost.id, lost.name, lost.state, lost.cols, lost.rows], [pane.id, 'agent', 'lost', 100, 30]);
      assert.deepEqual(lost.previous, { agent: 'claude', state: 'idle', session: 'sess-1234' });
      const listed = await runCli(['--socket', second.socket, 'pane', 'list']);
      assert.match(listed.stdout, /lost \(claude idle, session sess-1234\)/);
      const refused = await b.client.call(90, 'pane.send', { target: pane.id, text: 'x' });
      assert.equal(refused.error.data.code, 'pane_exited');
      assert.match(refused.error.message, /corral pane respawn/);

      const respawned = await runCli(['--socket', second.socket, 'pane', 'respawn', 'agent', '--json']);
      assert.equal(respawned.code, 0, respawned.stderr);
      const info = JSON.parse(respawned.stdout);
      assert.deepEqual([info.id, info.name, info.state, info.cwd, info.cols, info.rows, info.resumed], [pane.id, 'agent', 'running', dir, 100, 30, 'sess-1234']);
      // The pid is known from the fork; the exec that names the agent follows.
      const argv = () => readFileSync(`/proc/${info.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      await waitFor(() => argv().includes(FAKE_CLAUDE), { what: 'the respawned agent to exec', timeoutMs: 60_000 });
      assert.deepEqual(argv().slice(-3), [FAKE_CLAUDE, '--resume', 'sess-1234'], 'the resume form of the claude manifest');
      await waitFor(async () => (await b.call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'the respawned agent idle', timeoutMs: 60_000 });
      const again = await b.client.call(91, 'pane.respawn', { target: pane.id });
      assert.equal(again.error.data.code, 'pane_running');
      b.client.close();
    } finally {
      if (second) await second.dispose();
      await first.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps hook sequence watermarks and generations across a daemon restart', async () => {
    const dir = makeTempDir();
    const first = await startDaemon({ dir });
    let second: DaemonProcess | undefined;
    try {
      const a = await connect(first);
      // Reports come from inside the pane (the kernel names the sender): the pane runs a relay to the daemon.
      const relay = join(dir, 'relay.sock');
      const pane = await a.call('pane.spawn', { command: process.execPath, args: [REPORT_PROXY, relay], cwd: dir });
      // The socket file appears at bind(), before listen(): a connect in between is refused. Wait for the relay's own word.
      await waitFor(async () => (await a.call('pane.read', { target: pane.id })).text.includes('proxy ready'), { what: 'the report relay to listen', timeoutMs: 60_000 });
      const viaPane = async (method: string, params: unknown) => {
        const client = await RawClient.connect(relay);
        const reply = await client.call(1, method, params);
        client.close();
        assert.ok(!reply.error, JSON.stringify(reply.error));
        return reply.result;
      };
      const report = (seq: number, state: string) => ({ target: pane.id, source: 'hook:claude', agent: 'claude', state, session: 's1', seq });
      assert.equal((await viaPane('pane.reportAgent', report(5, 'working'))).accepted, true);
      const [file] = stateFiles(dir);
      await waitFor(() => JSON.stringify(JSON.parse(readFileSync(file!, 'utf8')).panes[0]?.arbiter?.sequence ?? []).includes('5'), { what: 'the watermark in the state file', timeoutMs: 60_000 });
      a.client.close();
      await killDaemon(first);

      second = await startDaemon({ dir });
      const b = await connect(second);
      const late = await viaPane('pane.reportAgent', report(4, 'idle'));
      assert.deepEqual([late.accepted, late.reason], [false, 'stale_seq'], 'a late report from before the restart is still refused');
      assert.equal((await viaPane('pane.reportAgent', report(6, 'idle'))).accepted, true);
      b.client.close();
    } finally {
      if (second) await second.dispose();
      await first.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
