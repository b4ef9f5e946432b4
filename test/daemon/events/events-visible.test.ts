import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from '../../helpers/cli.ts';
import { FAKE_CLAUDE, useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

type Event = { cursor: number; kind: string; pane: { id: string; name: string | null } | null; data: any };

describe('events: a stateChanged only for a change a client sees, and filters by workspace and state', () => {
  const session = useDaemon();
  const { call } = session;
  const read = async (filter = ''): Promise<Event[]> => (await call('events.read', { since: 0, filter })).events;

  it('emits no unknown to unknown for a new pane and no blocked to blocked when a blocked agent is seen', async () => {
    const shell = await call('pane.spawn', { command: 'sh', args: ['-c', 'echo plain; exec sleep 300'], cwd: session.daemon.dir, workspace: 'quiet' });
    await session.screenContains(shell.id, 'plain');
    const pane = await call('pane.spawn', {
      command: process.execPath,
      args: [FAKE_CLAUDE],
      cwd: session.daemon.dir,
      name: 'asker',
      workspace: 'busy',
      env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '100' },
    });
    await session.agentUntil(pane.id, (i) => i.rawState === 'idle', 'the idle prompt box');
    // A finished turn leaves the agent unseen (done); the permission form that follows is blocked and unseen.
    await call('agent.prompt', { target: 'asker', text: 'write it' });
    await session.agentUntil('asker', (i) => i.state === 'done', 'the finished turn');
    await call('agent.prompt', { target: 'asker', text: 'perm' });
    await session.agentUntil('asker', (i) => i.state === 'blocked', 'the permission form');
    const focused = await call('agent.focus', { target: 'asker' });
    assert.equal(focused.state, 'blocked');
    const seen = (await waitFor(async () => (await read('kind:agent.seen')).find((e) => e.pane?.id === pane.id), { what: 'agent.seen' }))!;
    assert.deepEqual([seen.data.state, seen.data.seen, seen.data.agent], ['blocked', true, 'claude']);

    const all = await read();
    const changes = all.filter((e) => e.kind === 'agent.stateChanged');
    const lines = changes.map((e) => `${e.pane!.id} ${e.data.agent} ${e.data.from}>${e.data.to}`).join('; ');
    assert.ok(!changes.some((e) => e.pane!.id === shell.id), `the shell pane had no visible change: ${lines}`);
    // A same-state change is one only when the agent itself changed: an agent.detected of the same seq.
    const detected = new Set(all.filter((e) => e.kind === 'agent.detected').map((e) => e.data.seq));
    assert.deepEqual(changes.filter((e) => e.data.from === e.data.to && !detected.has(e.data.seq)), [], lines);
    assert.ok(changes.some((e) => e.pane!.id === pane.id && e.data.to === 'blocked'), lines);
  });

  it('filters by workspace and by state, alone and together, and refuses an unknown state', async () => {
    const busy = await read('workspace:busy');
    assert.ok(busy.length > 0);
    for (const event of busy) {
      const workspace = event.pane ? event.pane.id.split(':')[0] : event.data.workspace;
      assert.equal(workspace, 'busy', JSON.stringify(event));
    }
    assert.ok(busy.some((e) => e.kind === 'workspace.stateChanged' && e.data.to === 'blocked'));
    assert.ok((await read('workspace:quiet')).some((e) => e.kind === 'pane.created'));

    const blocked = await read('state:blocked');
    assert.deepEqual([...new Set(blocked.map((e) => e.kind))].sort(), ['agent.attention', 'agent.seen', 'agent.stateChanged', 'workspace.stateChanged']);
    const both = await read('state:blocked workspace:quiet');
    assert.deepEqual(both, []);
    const byAgent = await read('agent:claude state:blocked kind:agent.stateChanged');
    assert.deepEqual(byAgent.map((e) => e.data.to), ['blocked']);

    const refused = await session.callError('events.read', { filter: 'state:asleep' });
    assert.equal(refused.data.code, 'invalid_params');
    assert.match(refused.message, /"asleep" is not an agent state/);
  });

  it('takes the same filters on the command line', async () => {
    const printed = await runCli(['--socket', session.daemon.socket, '--json', 'events', '--filter', 'workspace:busy state:blocked kind:agent.attention']);
    assert.equal(printed.code, 0, printed.stderr);
    const events = printed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Event);
    assert.deepEqual(events.map((e) => [e.kind, e.pane?.name, e.data.state]), [['agent.attention', 'asker', 'blocked']]);
    const bad = await runCli(['--socket', session.daemon.socket, 'events', '--filter', 'workspace:']);
    assert.equal(bad.code, 2, bad.stderr);
  });
});
