import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CORRAL_BIN } from '../../../harness/daemon.ts';
import { runCli } from '../../helpers/cli.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

const CLAUDE = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/hooks/claude/${name}`, import.meta.url)), 'utf8');

/** The real `corral report --hook claude` as an agent started outside Corral runs it: no CORRAL_PANE. */
function hook(payload: string, env: NodeJS.ProcessEnv, session?: string): Promise<{ code: number | null; stderr: string }> {
  const body = session === undefined ? payload : JSON.stringify({ ...JSON.parse(payload), session_id: session });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CORRAL_BIN, 'report', '--hook', 'claude', '--strict'], { stdio: ['pipe', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end(body);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('external panes: hook reports of agents started outside Corral', () => {
  const session = useDaemon();
  const env = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, CORRAL_SOCKET: session.daemon.socket, CORRAL_HOOK_DEADLINE_MS: '20000' };
    delete env.CORRAL_PANE;
    return env;
  };
  const externalPane = async (sessionId: string) =>
    (await session.call('pane.list', {})).panes.find((p: any) => p.external?.session === sessionId);

  it('lists the agent as a pane keyed by source and session, which agent list, waits and kill see', async () => {
    assert.deepEqual(await hook(CLAUDE('UserPromptSubmit-1.json'), env(), 'ext-a'), { code: 0, stderr: '' });
    const pane = await externalPane('ext-a');
    assert.ok(pane, 'an external pane is listed');
    assert.deepEqual([pane.workspace, pane.external, pane.state], ['external', { source: 'hook:claude', session: 'ext-a' }, 'running']);

    const list = await runCli(['--socket', session.daemon.socket, '--json', 'agent', 'list']);
    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout).agents.find((a: any) => a.id === pane.id);
    assert.deepEqual([listed?.agent, listed?.identity, listed?.state, listed?.source], ['claude', 'report', 'working', 'report:hook:claude']);

    // A wait on it wakes on its next hook report.
    const wait = runCli(['--socket', session.daemon.socket, '--json', 'agent', 'wait', pane.id, '--until', 'blocked', '--timeout', '60000']);
    await waitFor(async () => (await session.call('server.status', {})).waits > 0, { what: 'the wait to be registered', timeoutMs: 30_000 });
    assert.equal((await hook(CLAUDE('PermissionRequest-1.json'), env(), 'ext-a')).code, 0);
    const waited = await wait;
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal((await session.call('agent.get', { target: pane.id })).state, 'blocked');

    // Another session of the same source is another pane; the same session stays one.
    assert.equal((await hook(CLAUDE('Stop-1.json'), env(), 'ext-b')).code, 0);
    const other = await externalPane('ext-b');
    assert.notEqual(other.id, pane.id);
    assert.equal((await hook(CLAUDE('PostToolUse-1.json'), env(), 'ext-a')).code, 0);
    assert.equal((await session.call('pane.list', {})).panes.filter((p: any) => p.external?.session === 'ext-a').length, 1);
    assert.equal((await session.call('agent.get', { target: pane.id })).state, 'working');

    // It has no terminal: input is refused with a clear code, and kill removes it.
    const send = await session.callError('pane.send', { target: pane.id, text: 'x' });
    assert.equal(send.data.code, 'pane_external');
    const respawn = await session.callError('pane.respawn', { target: pane.id });
    assert.equal(respawn.data.code, 'pane_external');
    await session.call('pane.kill', { target: other.id });
    assert.equal(await externalPane('ext-b'), undefined);
  });

  it('removes the pane when the agent session ends', async () => {
    assert.equal((await hook(CLAUDE('SessionStart-1.json'), env(), 'ext-c')).code, 0);
    const pane = await externalPane('ext-c');
    assert.equal((await session.call('agent.get', { target: pane.id })).agent, 'claude');
    assert.equal((await hook(CLAUDE('SessionEnd-1.json'), env(), 'ext-c')).code, 0);
    await waitFor(async () => (await externalPane('ext-c')) === undefined, { what: 'the ended session to leave the list', timeoutMs: 30_000 });
  });

  it('removes the pane once its identity expires, 6 h after the last report', async () => {
    // An idle report stays authoritative however old; sent 6 h less 2 s ago, its identity lapses in 2 s.
    // The event log tells that it was listed, however soon it lapsed (a slow machine may take 2 s to ask).
    const since = await session.call('events.cursor', {});
    const ts = Math.floor(Date.now() / 1000) - 6 * 3600 + 2;
    const answer = await session.call('pane.reportAgent', { source: 'hook:claude', agent: 'claude', state: 'idle', session: 'ext-old', ts });
    assert.deepEqual(answer, { accepted: true });
    await waitFor(async () => (await externalPane('ext-old')) === undefined, { what: 'the expired identity to leave the list', timeoutMs: 30_000 });
    const { events } = await session.call('events.read', { since: since.cursor, epoch: since.epoch });
    const created = events.find((e: any) => e.kind === 'pane.created' && e.data.external?.session === 'ext-old');
    assert.ok(created, 'listed while its identity held');
    assert.ok(
      events.some((e: any) => e.kind === 'pane.removed' && e.pane?.id === created.pane.id && e.cursor > created.cursor),
      'then removed',
    );
  });

  it('lists nothing for a report that is refused, or that names no session', async () => {
    const bad = await session.call('pane.reportAgent', { source: 'hook:claude', agent: 'claude', state: 'sleeping', session: 'ext-bad' });
    assert.deepEqual(bad, { accepted: false, reason: 'invalid_report' });
    const unnamed = await session.call('pane.reportAgent', { source: 'hook:claude', agent: 'claude', state: 'idle' });
    assert.deepEqual(unnamed, { accepted: false, reason: 'invalid_report' });
    const release = await session.call('pane.releaseAgent', { source: 'hook:claude', session: 'ext-none' });
    assert.deepEqual(release, { accepted: false, reason: 'no_report' });
    const listed = (await session.call('pane.list', {})).panes.filter((p: any) => ['ext-bad', 'ext-none'].includes(p.external?.session));
    assert.deepEqual(listed, []);
  });
});
