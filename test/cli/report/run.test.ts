import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runReport } from '../../../src/cli/report/run.ts';
import { runCli } from '../../helpers/cli.ts';
import { useDaemon } from '../../helpers/session.ts';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORRAL_BIN } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';

const REPORT_PROXY = fileURLToPath(new URL('../../fixtures/report-proxy.mjs', import.meta.url));

/** The real `corral report` with `input` on its stdin. */
function hook(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CORRAL_BIN, 'report', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('corral report, the hook command', () => {
  const session = useDaemon();
  const env = (socket = session.daemon.socket) => {
    // Delivery is asserted here, not speed (bench/hook.ts measures that): a loaded machine gets time.
    const env: NodeJS.ProcessEnv = { ...process.env, CORRAL_SOCKET: socket, CORRAL_HOOK_DEADLINE_MS: '20000' };
    delete env.CORRAL_PANE;
    return env;
  };
  let proxies = 0;
  /**
   * A pane whose program relays connections to the daemon: a report sent through it comes from inside
   * the pane, as the kernel sees it, like an agent's hook. `env` points `corral report` at the relay.
   */
  async function reporterPane(): Promise<{ id: string; env: NodeJS.ProcessEnv }> {
    const path = join(session.daemon.dir, `hook-proxy-${(proxies += 1)}.sock`);
    const pane = await session.call('pane.spawn', { command: process.execPath, args: [REPORT_PROXY, path], cwd: session.daemon.dir });
    // The socket file appears at bind(), before listen(): a connect in between is refused. Wait for the proxy's own word.
    await waitFor(async () => (await session.call('pane.read', { target: pane.id })).text.includes('proxy ready'), { what: 'the report proxy to listen' });
    return { id: pane.id, env: env(path) };
  }

  it('maps a Claude Code hook payload to a state of the pane, printing nothing', async () => {
    const pane = await reporterPane();
    const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's-1', prompt: 'go' });
    const result = await hook(['--hook', 'claude', '--target', pane.id], payload, pane.env);
    assert.deepEqual(result, { code: 0, stdout: '', stderr: '' });
    const info = await session.call('agent.get', { target: pane.id });
    assert.deepEqual([info.agent, info.state, info.source], ['claude', 'working', 'report:hook:claude']);
    const stop = await hook(['--hook', 'claude', '--target', pane.id, '--strict'], JSON.stringify({ hook_event_name: 'Stop', session_id: 's-1' }), pane.env);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal((await session.call('agent.get', { target: pane.id })).state, 'done');
    await session.call('pane.kill', { target: pane.id });
  });

  it('reports as soon as one whole payload has arrived, though the agent keeps its stdin open', async () => {
    const pane = await reporterPane();
    const child = spawn(process.execPath, [CORRAL_BIN, 'report', '--hook', 'gemini', '--target', pane.id, '--strict'], { stdio: ['pipe', 'pipe', 'pipe'], env: pane.env });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Written in two parts, and never ended: the payload is whole only after the second.
    child.stdin.write('{"hook_event_name":"BeforeAgent","session_id":"g-1",');
    child.stdin.write('"timestamp":"2026-11-30T23:52:48.105Z"}');
    assert.equal(await closed, 0);
    assert.deepEqual([(await session.call('agent.get', { target: pane.id })).state], ['working']);
    child.stdin.destroy();
    await session.call('pane.kill', { target: pane.id });
  });

  it('lets a later event win when an earlier hook process arrives after it', async () => {
    const pane = await reporterPane();
    // Two hook processes: the one that started later (blocked) is answered first.
    const blocked = await runReport(['--agent', 'claude', '--state', 'blocked', '--session', 's-2', '--target', pane.id, '--strict'], pane.env, 2_000_000);
    assert.equal(blocked, 0);
    const earlier = await runReport(['--agent', 'claude', '--state', 'working', '--session', 's-2', '--target', pane.id, '--strict'], pane.env, 1_000_000);
    assert.equal(earlier, 1, 'the earlier event is refused (stale_seq)');
    assert.equal((await session.call('agent.get', { target: pane.id })).state, 'blocked');
    await session.call('pane.kill', { target: pane.id });
  });

  it('exits 0 with nothing on stdout when no daemon answers, and says why under --strict', async () => {
    const quiet = await hook(['--hook', 'claude', '--target', 'p1', '--socket', '/nonexistent/corral.sock'], '{"hook_event_name":"Stop"}', env());
    assert.deepEqual(quiet, { code: 0, stdout: '', stderr: '' });
    const strict = await hook(['--hook', 'claude', '--target', 'p1', '--socket', '/nonexistent/corral.sock', '--strict'], '{"hook_event_name":"Stop"}', env());
    assert.equal(strict.code, 4);
    assert.equal(strict.stdout, '');
    assert.match(strict.stderr, /no daemon answers/);
  });

  it('is listed in --help with its deadline', async () => {
    const help = await runCli(['report', '--help']);
    assert.match(help.stdout, /300 ms/);
  });
});
