import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AGENT_FOCUS, AGENT_GET, AGENT_WAIT, MAX_WAIT_TARGETS, PANE_GET, PANE_KILL } from '../../../src/protocol/methods/index.ts';
import { AgentLab } from '../../helpers/agent-lab.ts';
import { waitFor } from '../../../harness/wait.ts';

/**
 * The bound of a wait that must end by itself: a hang guard, not a figure. A wait's time runs while
 * the test drives other panes (an agent exiting, a pane killed), which a loaded machine can take
 * seconds over; a tight bound failed there with the awaited turn just begun.
 */
const HANG_GUARD_MS = 60_000;

describe('agent.wait through the daemon with fake agents', () => {
  let lab: AgentLab;

  before(async () => {
    lab = await AgentLab.start();
  });

  after(async () => {
    await lab?.dispose();
  });

  it('returns at once when the target already matches', async () => {
    await lab.agent('ready', 300);
    const result = await lab.call(AGENT_WAIT, { targets: ['ready'], until: ['idle'] });
    assert.deepEqual(result.matched, ['ready']);
    assert.ok(['idle', 'done'].includes(result.states.ready!));
    assert.ok(result.elapsedMs < 100, `took ${result.elapsedMs} ms`);
  });

  it('takes done for idle, since done is idle not yet seen', async () => {
    await lab.agent('finisher', 200);
    const seq = await lab.seq();
    await lab.type('finisher', 'work');
    const result = await lab.call(AGENT_WAIT, { targets: ['finisher'], until: ['idle'], sinceSeq: seq, timeoutMs: HANG_GUARD_MS });
    assert.deepEqual(result.states, { finisher: 'done' });
    assert.equal((await lab.call(AGENT_GET, { target: 'finisher' })).state, 'done', 'waiting never marks the pane seen');
  });

  it('with sinceSeq, ignores the idle that preceded the prompt and returns on the one after the work', async () => {
    await lab.agent('turns', 500);
    const seq = await lab.seq();
    const before = await lab.failure(AGENT_WAIT, { targets: ['turns'], until: ['idle'], sinceSeq: seq, timeoutMs: 150 });
    assert.equal(before.code, 'timeout', 'the idle before any prompt is no answer');
    const waiting = lab.call(AGENT_WAIT, { targets: ['turns'], until: ['idle'], sinceSeq: seq, timeoutMs: HANG_GUARD_MS });
    await lab.type('turns', 'do it');
    const result = await waiting;
    assert.deepEqual(result.states, { turns: 'done' });
    assert.ok(result.seq >= seq + 2, `a working and an idle change came after ${seq}, got ${result.seq}`);
    assert.ok(result.elapsedMs >= 400, `returned after ${result.elapsedMs} ms, before the work was over`);
    // Level-triggered: asked again after the fact with the same seq, it answers at once.
    const again = await lab.call(AGENT_WAIT, { targets: ['turns'], sinceSeq: seq, timeoutMs: 0 });
    assert.deepEqual(again.matched, ['turns']);
  });

  it('does not count a seen flip (focus turning done into idle) as the change sinceSeq waits for', async () => {
    // The turn is held until the daemon has seen it work: a short timed turn could be drawn over by
    // the idle screen before the daemon looked, and then no turn (and no done) was ever seen.
    const release = join(lab.daemon.dir, 'flip-release');
    await lab.agent('flip', 100, { FAKE_RELEASE: release });
    const first = await lab.seq();
    await lab.type('flip', 'hold');
    await lab.call(AGENT_WAIT, { targets: ['flip'], until: ['working'], sinceSeq: first, timeoutMs: HANG_GUARD_MS });
    writeFileSync(release, '');
    await lab.call(AGENT_WAIT, { targets: ['flip'], until: ['done'], sinceSeq: first, timeoutMs: HANG_GUARD_MS });
    const seq = await lab.seq();
    await lab.call(AGENT_FOCUS, { target: 'flip' });
    assert.ok((await lab.seq()) > seq, 'the focus was published as a change');
    const error = await lab.failure(AGENT_WAIT, { targets: ['flip'], until: ['idle'], sinceSeq: seq, timeoutMs: 150 });
    assert.equal(error.code, 'timeout');
    assert.deepEqual(error.details.states, { flip: 'idle' });
  });

  it('with stableMs, returns only once the state has held that long, and a change breaks the hold', async () => {
    await lab.agent('steady', 300); // working lasts the work plus the arbiter's 450 ms debounce
    let seq = await lab.seq();
    await lab.type('steady', 'long job');
    // The hold counts from when the state began, which may be before the wait arrived (docs/protocol.md).
    const began = (await waitFor(async () => {
      const info = await lab.call(AGENT_GET, { target: 'steady' });
      return info.state === 'working' ? info : null;
    }, { what: 'working' }))!.stateSince;
    const held = await lab.call(AGENT_WAIT, { targets: ['steady'], until: ['working'], sinceSeq: seq, stableMs: 300, timeoutMs: HANG_GUARD_MS });
    const answered = Date.now();
    assert.deepEqual(held.states, { steady: 'working' });
    assert.ok(answered - began >= 300, `answered ${answered - began} ms after working began`);
    await lab.call(AGENT_WAIT, { targets: ['steady'], until: ['done'], timeoutMs: HANG_GUARD_MS });

    seq = await lab.seq();
    await lab.type('steady', 'another');
    const broken = await lab.failure(AGENT_WAIT, { targets: ['steady'], until: ['working'], sinceSeq: seq, stableMs: 1300, timeoutMs: 1500 });
    assert.equal(broken.code, 'timeout', 'the work ended before it had held for 1300 ms');
    assert.deepEqual(broken.details.matched, []);
    assert.equal((broken.details.states as Record<string, string>).steady, 'done');
  });

  it('with mode any returns on the first target; with mode all, once every target matches', async () => {
    // The slow one works until it is let go, and is seen working before the quick one starts: on a slow
    // machine a timed turn could end first, or not yet read as working when the quick one ends.
    const release = join(lab.daemon.dir, 'slow-release');
    await lab.agent('quick', 150);
    await lab.agent('slow', 100, { FAKE_RELEASE: release });
    const seq = await lab.seq();
    const any = lab.call(AGENT_WAIT, { targets: ['quick', 'slow'], until: ['idle'], sinceSeq: seq, timeoutMs: HANG_GUARD_MS });
    const all = lab.call(AGENT_WAIT, { targets: ['quick', 'slow'], until: ['idle'], mode: 'all', sinceSeq: seq, timeoutMs: HANG_GUARD_MS });
    await lab.type('slow', 'hold');
    await lab.call(AGENT_WAIT, { targets: ['slow'], until: ['working'], sinceSeq: seq, timeoutMs: HANG_GUARD_MS });
    await lab.type('quick', 'a');
    const first = await any;
    assert.deepEqual(first.matched, ['quick']);
    assert.equal(first.states.slow, 'working');
    writeFileSync(release, '');
    const both = await all;
    assert.deepEqual(both.matched, ['quick', 'slow']);
    assert.deepEqual(both.states, { quick: 'done', slow: 'done' });
    assert.ok(both.elapsedMs > first.elapsedMs);
  });

  it('ends with agent_gone when the agent exits, when its pane is killed, and at once on a pane already gone', async () => {
    await lab.agent('leaver', 300);
    const exiting = lab.failure(AGENT_WAIT, { targets: ['leaver'], until: ['working'], timeoutMs: HANG_GUARD_MS });
    await lab.type('leaver', 'exit');
    const exited = await exiting;
    assert.equal(exited.code, 'agent_gone');
    assert.deepEqual(exited.details.gone, ['leaver']);
    assert.deepEqual(exited.details.states, { leaver: 'gone' });

    const already = await lab.failure(AGENT_WAIT, { targets: ['leaver'], timeoutMs: HANG_GUARD_MS });
    assert.equal(already.code, 'agent_gone');

    await lab.agent('victim', 300);
    const killed = lab.failure(AGENT_WAIT, { targets: ['victim'], until: ['blocked'], timeoutMs: HANG_GUARD_MS });
    await lab.call(PANE_KILL, { target: 'victim' });
    assert.equal((await killed).code, 'agent_gone');
  });

  it('in mode any, keeps waiting on the others while one target is gone', async () => {
    await lab.agent('stayer', 200);
    await lab.agent('quitter', 200);
    const seq = await lab.seq();
    const waiting = lab.call(AGENT_WAIT, { targets: ['stayer', 'quitter'], until: ['idle'], sinceSeq: seq, timeoutMs: HANG_GUARD_MS });
    await lab.type('quitter', 'exit');
    await waitFor(async () => (await lab.call(PANE_GET, { target: 'quitter' })).state !== 'running', { what: 'the quitter exited', timeoutMs: 60_000 });
    await lab.type('stayer', 'go on');
    const result = await waiting;
    assert.deepEqual(result.matched, ['stayer']);
    assert.equal(result.states.quitter, 'gone');
  });

  it('on timeout carries matched, states, seq and elapsedMs in the error data', async () => {
    await lab.agent('sleepy', 300);
    const error = await lab.failure(AGENT_WAIT, { targets: ['sleepy'], until: ['blocked'], timeoutMs: 120 });
    assert.equal(error.code, 'timeout');
    assert.deepEqual(error.details.matched, []);
    assert.ok(['idle', 'done'].includes((error.details.states as Record<string, string>).sleepy!));
    assert.equal(typeof error.details.seq, 'number');
    assert.ok((error.details.elapsedMs as number) >= 110);
    assert.match(error.message, /sleepy is (idle|done)/);
  });

  it('refuses unknown targets, too many targets, an empty until and a sinceSeq from the future', async () => {
    assert.equal((await lab.failure(AGENT_WAIT, { targets: ['nobody'] })).code, 'pane_not_found');
    const many = Array.from({ length: MAX_WAIT_TARGETS + 1 }, (_, i) => `p${i}`);
    assert.equal((await lab.failure(AGENT_WAIT, { targets: many })).code, 'invalid_params');
    assert.equal((await lab.failure(AGENT_WAIT, { targets: [] })).code, 'invalid_params');
    assert.equal((await lab.failure(AGENT_WAIT, { targets: ['ready'], until: [] })).code, 'invalid_params');
    const ahead = await lab.failure(AGENT_WAIT, { targets: ['ready'], sinceSeq: (await lab.seq()) + 1000 });
    assert.equal(ahead.code, 'invalid_params');
    assert.match(ahead.message, /was it removed/);
  });
});
