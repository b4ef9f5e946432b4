import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AGENT_FOCUS, AGENT_GET, AGENT_LIST, AGENT_READ, AGENT_WAIT, PANE_FOCUS, PANE_SPAWN } from '../../../src/protocol/methods/index.ts';
import { AgentLab } from '../../helpers/agent-lab.ts';

describe('agent.list, agent.read and focus through the daemon with fake agents', () => {
  let lab: AgentLab;

  before(async () => {
    lab = await AgentLab.start();
    await Promise.all([lab.agent('blocker', 100), lab.agent('busy', 20_000), lab.agent('finished', 100), lab.agent('looked', 100)]);
    const seq = await lab.seq();
    await Promise.all([lab.type('blocker', 'perm'), lab.type('busy', 'long'), lab.type('finished', 'x'), lab.type('looked', 'y')]);
    await lab.call(AGENT_WAIT, { targets: ['blocker', 'finished', 'looked'], until: ['blocked', 'done'], mode: 'all', sinceSeq: seq, timeoutMs: 8000 });
    await lab.call(AGENT_FOCUS, { target: 'looked' });
    await lab.call(PANE_SPAWN, { command: 'bash', args: ['--norc', '--noprofile'], name: 'shell', cwd: lab.daemon.dir });
  });

  after(async () => {
    await lab?.dispose();
  });

  it('lists every agent with its state and rolls the workspace up to the most pressing state', async () => {
    const list = await lab.call(AGENT_LIST, {});
    const states = Object.fromEntries(list.agents.map((a) => [a.name, a.state]));
    assert.deepEqual(states, { blocker: 'blocked', busy: 'working', finished: 'done', looked: 'idle' });
    assert.deepEqual(list.workspaces, [{ workspace: 'w1', state: 'blocked', counts: { idle: 1, working: 1, blocked: 1, done: 1, unknown: 0 } }]);
    assert.equal(typeof list.seq, 'number');
  });

  it('filters, and lists panes with no agent only when asked', async () => {
    const blocked = await lab.call(AGENT_LIST, { filter: { state: ['blocked', 'done'] } });
    assert.deepEqual(blocked.agents.map((a) => a.name), ['blocker', 'finished']);
    assert.equal(blocked.workspaces[0]!.state, 'blocked');
    const named = await lab.call(AGENT_LIST, { filter: { name: '*o*', agent: 'claude' } });
    assert.deepEqual(named.agents.map((a) => a.name), ['blocker', 'looked']);
    const all = await lab.call(AGENT_LIST, { all: true });
    assert.deepEqual(all.agents.filter((a) => a.agent === null).map((a) => a.name), ['shell']);
  });

  it('reads exactly what detection reads, with title, and never marks the pane seen', async () => {
    const detection = await lab.call(AGENT_READ, { target: 'finished', source: 'detection' });
    const lines = detection.text.split('\n');
    assert.equal(lines.length, detection.rows);
    assert.ok(lines.some((line) => line.startsWith('❯')), detection.text);
    assert.equal(detection.title, '✳ Fake Agent');
    assert.ok(detection.cursor);
    assert.deepEqual((await lab.call(AGENT_READ, { target: 'finished', source: 'detection', lines: 3 })).text.split('\n'), lines.slice(-3));
    const screen = await lab.call(AGENT_READ, { target: 'finished' });
    assert.match(screen.text, /Task complete\./);
    await lab.call(AGENT_READ, { target: 'finished', source: 'scrollback', ansi: true });
    assert.equal((await lab.call(AGENT_GET, { target: 'finished' })).state, 'done');
    assert.equal((await lab.failure(AGENT_READ, { target: 'finished', source: 'detection', ansi: true })).code, 'invalid_params');
  });

  it('focus turns done into idle and publishes the change; focusing again changes nothing', async () => {
    const before = await lab.seq();
    const focused = await lab.call(PANE_FOCUS, { target: 'finished' });
    assert.equal(focused.state, 'idle');
    assert.equal(focused.seen, true);
    assert.equal(await lab.seq(), before + 1);
    const again = await lab.call(AGENT_FOCUS, { target: 'finished' });
    assert.equal(again.revision, focused.revision);
    assert.equal(await lab.seq(), before + 1);
    assert.equal((await lab.failure(AGENT_FOCUS, { target: 'nobody' })).code, 'pane_not_found');
  });
});
