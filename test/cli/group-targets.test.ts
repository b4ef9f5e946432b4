import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { waitFor } from '../../harness/wait.ts';
import { AgentLab, FAKE_AGENT } from '../helpers/agent-lab.ts';

/** Every command that takes a pane takes a group too: `@W` or a pattern, resolved by one resolver. */
describe('group targets on every command that takes a pane', () => {
  let lab: AgentLab;
  const ids: Record<string, string> = {};
  const corral = (...args: string[]) => runCli(['--socket', lab.daemon.socket, ...args], { timeoutMs: 60_000 });
  const json = async (...args: string[]) => {
    const run = await corral('--json', ...args);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return JSON.parse(run.stdout);
  };
  const idsOf = (results: { id: string }[]) => results.map((r) => r.id);

  before(async () => {
    lab = await AgentLab.start();
    for (const name of ['g1', 'g2']) {
      const pane = await json('pane', 'spawn', '--workspace', 'grp', '--name', name, '--env', 'CORRAL_AGENT=claude', '--env', 'FAKE_WORK_MS=200', '--', process.execPath, FAKE_AGENT);
      ids[name] = pane.id;
    }
    ids.old = (await json('pane', 'spawn', '--workspace', 'grp', '--name', 'old', '--', 'sh', '-c', 'echo bye')).id;
    await corral('agent', 'wait', 'g1', 'g2', '--all', '--until', 'idle', '--timeout', '2m');
    await waitFor(async () => (await json('pane', 'get', 'old')).state === 'exited', { what: 'old to exit', timeoutMs: 60_000 });
  });

  after(async () => {
    await lab?.dispose();
  });

  it('pane get, agent get, agent explain, pane focus, agent queue: each pane of the group in turn', async () => {
    assert.deepEqual(idsOf(await json('pane', 'get', '@grp')), [ids.g1, ids.g2, ids.old]);
    const agents = await json('agent', 'get', 'g?');
    assert.deepEqual(idsOf(agents), [ids.g1, ids.g2]);
    assert.deepEqual(agents.map((a: { result: { agent: string } }) => a.result.agent), ['claude', 'claude']);
    const explained = await json('agent', 'explain', '@grp');
    assert.deepEqual(idsOf(explained), [ids.g1, ids.g2, ids.old]);
    assert.equal(explained[0].result.agent.agent, 'claude');
    assert.deepEqual(idsOf(await json('pane', 'focus', 'g?')), [ids.g1, ids.g2]);
    const queues = await json('agent', 'queue', '@grp');
    assert.deepEqual(queues.map((q: { result: { queued: number } }) => q.result.queued), [0, 0, 0]);
    const cleared = await json('agent', 'queue', '@grp', '--clear');
    assert.deepEqual(cleared.map((q: { result: { cleared: number } }) => q.result.cleared), [0, 0, 0]);
    const text = await corral('agent', 'get', '@grp');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^==> ${ids.g1} <==\n`));
    assert.match(text.stdout, new RegExp(`\n==> ${ids.g2} <==\n`));
  });

  it('pane resize and pane metadata take the running panes of a group; pane respawn the exited ones', async () => {
    const resized = await json('pane', 'resize', '@grp', '100', '30');
    assert.deepEqual(idsOf(resized), [ids.g1, ids.g2]);
    assert.ok(resized.every((r: { result: { cols: number; rows: number } }) => r.result.cols === 100 && r.result.rows === 30));
    // Metadata comes from a process in the pane; from here, the first pane of the group refuses it.
    const labelled = await corral('pane', 'metadata', '@grp', '--source', 'ci', '--title', 'nightly');
    assert.equal(labelled.code, 1, labelled.stderr);
    assert.match(labelled.stderr, new RegExp(`${ids.g1}.*\\[not_in_pane\\]`));
    const respawned = await json('pane', 'respawn', '@grp');
    assert.deepEqual(idsOf(respawned), [ids.old]);
    const none = await corral('pane', 'respawn', 'g?');
    assert.equal(none.code, 3, 'g1 and g2 run: no lost or exited pane matches');
    assert.match(none.stderr, /no lost or exited pane matches "g\?"/);
  });

  it('a command that acts on one pane takes a group of exactly one, and refuses a larger one naming its panes', async () => {
    await lab.type('g2', 'perm');
    await corral('agent', 'wait', 'g2', '--until', 'blocked', '--timeout', '2m');
    const many = await corral('agent', 'answer', '@grp', '1');
    assert.equal(many.code, 2, many.stderr);
    assert.match(many.stderr, new RegExp(`"@grp" names 3 panes \\(${ids.g1} \\(g1\\), ${ids.g2} \\(g2\\), ${ids.old} \\(old\\)\\); agent answer takes one`));
    const one = await corral('agent', 'answer', '*2', '1');
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, new RegExp(`^${ids.g2} left blocked`));

    const report = await corral('agent', 'report', '--target', 'g?', '--source', 'probe', '--agent', 'claude', '--state', 'idle', '--external');
    assert.equal(report.code, 2);
    assert.match(report.stderr, /"g\?" names 2 panes .*agent report takes one/);
    const hook = await corral('report', '--target', '@grp', '--agent', 'claude', '--state', 'idle', '--strict');
    assert.equal(hook.code, 2);
    assert.match(hook.stderr, /--target takes one pane id or name, not the group "@grp"/);
    const nowhere = await corral('pane', 'get', '@nowhere');
    assert.equal(nowhere.code, 3);
  });

  it('events take a group in the filter: pane:@W (with the workspace rollup) and name patterns', async () => {
    const read = async (filter: string) => {
      const run = await corral('--json', 'events', '--filter', filter);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    };
    const workspace = await read('pane:@grp');
    assert.ok(workspace.every((e) => (e.pane ? e.pane.id.startsWith('grp:') : e.kind === 'workspace.stateChanged' && e.data.workspace === 'grp')), JSON.stringify(workspace));
    assert.ok(workspace.some((e) => e.kind === 'pane.created' && e.pane.name === 'old'));
    assert.ok(workspace.some((e) => e.kind === 'workspace.stateChanged'));
    const named = await read('pane:g? kind:pane.created');
    assert.deepEqual(named.map((e) => e.pane.name), ['g1', 'g2']);
  });
});
