import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PaneArbiter, type ChangeRecord } from '../../src/arbiter/index.ts';
import { ManualClock, TreeModel, agentRunning, shellOnly, verdict, skipVerdict, userVar } from './harness.ts';
import { ReferenceModel, type ModelEvent } from './reference-model.ts';

const RUNS = 2000;
const STEPS = 40;
const BASE_SEED = 0x5eed;
const STATES = ['idle', 'working', 'blocked'] as const;

/** mulberry32: small, fast, deterministic. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface World {
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  model: ReferenceModel;
  nextPid: number;
  oldHookPids: number[];
  sessions: string[];
}

function nextEvent(world: World): ModelEvent {
  const { pick, chance, model } = world;
  const agent = model.agent ?? model.view.agent ?? pick(['claude', 'opencode']);
  const hookPid = model.agentPid !== null ? model.agentPid + 1 : null;
  const roll = Math.floor(pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]));
  if (roll === 0) {
    const started = pick(['claude', 'opencode']);
    world.nextPid += 10;
    return { kind: 'start', agent: started, pid: world.nextPid, lifecycle: started === 'opencode' ? ['plugin:opencode'] : [] };
  }
  if (roll === 1) return { kind: 'exit' };
  if (roll <= 5) {
    const rule = pick(['rule', 'rule', 'fallback', 'skip'] as const);
    return { kind: 'screen', agent: chance(0.9) ? agent : 'other', state: pick(STATES), rule };
  }
  if (roll <= 10) {
    if (chance(0.3) || world.sessions.length === 0) world.sessions.push(`s${world.sessions.length}`);
    const session = chance(0.25) ? null : pick(world.sessions);
    const seq = chance(0.2) ? null : Math.floor(world.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const kind = pick(['hook', 'hook', 'lifecycle', 'external', 'self'] as const);
    if (kind === 'self') return { kind: 'report', source: 'osc1337', agent: chance(0.85) ? agent : 'indexer', state: pick(STATES), session: null, seq: null, pid: null };
    if (kind === 'external') return { kind: 'report', source: 'custom:x', agent: chance(0.7) ? agent : 'indexer', state: pick(STATES), session, seq, pid: null };
    const stale = world.oldHookPids.length > 0 && (hookPid === null || chance(0.2));
    const pid = stale ? pick(world.oldHookPids) : hookPid;
    return { kind: 'report', source: kind === 'lifecycle' ? 'plugin:opencode' : 'hook:a', agent: chance(0.9) ? agent : 'indexer', state: pick(STATES), session, seq, pid };
  }
  if (roll === 11 && hookPid !== null) {
    return { kind: 'release', source: pick(['hook:a', 'plugin:opencode']), session: chance(0.5) ? null : pick(world.sessions.length ? world.sessions : ['s0']), pid: hookPid };
  }
  if (roll === 12) return { kind: 'seen' };
  return { kind: 'advance', ms: pick([0, 100, 300, 449, 450, 600]) };
}

function apply(arbiter: PaneArbiter, tree: TreeModel, clock: ManualClock, world: World, event: ModelEvent): { accepted: boolean | null; changes: ChangeRecord[] } {
  const model = world.model;
  switch (event.kind) {
    case 'start':
    case 'exit':
      if (model.agentPid !== null) {
        tree.kill(model.agentPid);
        tree.kill(model.agentPid + 1);
        world.oldHookPids.push(model.agentPid + 1);
      }
      if (event.kind === 'exit') return { accepted: null, changes: arbiter.observeProcess(shellOnly(100)) };
      tree.spawn(event.pid, 100, event.agent);
      tree.spawn(event.pid + 1, event.pid);
      return { accepted: null, changes: arbiter.observeProcess(agentRunning(event.agent, event.pid, { fullLifecycleSources: event.lifecycle })) };
    case 'screen': {
      const seen = event.rule === 'skip' ? skipVerdict(event.agent) : verdict(event.agent, event.state, event.rule === 'rule' ? 'r' : null);
      return { accepted: null, changes: arbiter.observeScreen(seen) };
    }
    case 'report': {
      if (event.source === 'osc1337') {
        const outcome = arbiter.observeOsc(userVar(`v1;agent=${event.agent};state=${event.state}`));
        return { accepted: outcome?.accepted ?? null, changes: outcome?.changes ?? [] };
      }
      const params = { source: event.source, agent: event.agent, state: event.state,
        ...(event.session !== null ? { session: event.session } : {}),
        ...(event.seq !== null ? { seq: event.seq } : {}),
        ...(event.pid !== null ? { pid: event.pid } : {}) };
      const outcome = arbiter.reportAgent(params);
      return { accepted: outcome.accepted, changes: outcome.changes };
    }
    case 'release': {
      const outcome = arbiter.releaseAgent({ source: event.source, pid: event.pid, ...(event.session !== null ? { session: event.session } : {}) });
      return { accepted: outcome.accepted, changes: outcome.changes };
    }
    case 'advance':
      clock.advance(event.ms);
      return { accepted: null, changes: arbiter.tick() };
    case 'seen':
      return { accepted: null, changes: arbiter.markSeen() };
  }
}

function runOnce(seed: number): void {
  const rand = random(seed);
  const model = new ReferenceModel(450, 1000);
  const world: World = {
    pick: (items) => items[Math.floor(rand() * items.length)] as (typeof items)[number],
    chance: (p) => rand() < p,
    model,
    nextPid: 1000,
    oldHookPids: [],
    sessions: [],
  };
  const clock = new ManualClock(0);
  const tree = new TreeModel(100);
  const arbiter = new PaneArbiter({ clock, tree });
  arbiter.observeProcess(shellOnly(100));
  model.step({ kind: 'exit' });
  const trace: string[] = [];
  for (let step = 0; step < STEPS; step += 1) {
    const event = nextEvent(world);
    trace.push(JSON.stringify(event));
    const before = arbiter.view();
    const { accepted, changes } = apply(arbiter, tree, clock, world, event);
    const expectedAccepted = model.step(event);
    const view = arbiter.view();
    const where = () => `seed ${seed} step ${step}\n${trace.join('\n')}\nview ${JSON.stringify(view)}\nmodel ${JSON.stringify(model.view)}`;
    const check = (holds: boolean, what: string) => {
      if (!holds) assert.fail(`${what}: ${where()}`);
    };
    check(accepted === expectedAccepted, `acceptance differs (arbiter ${accepted}, model ${expectedAccepted})`);
    check(view.agent === model.view.agent && view.state === model.view.state && view.seen === model.view.seen, 'state differs');
    if (accepted === false) check(JSON.stringify(view) === JSON.stringify(before), 'a rejected report changed the view');
    // No stale state is resurrected: a report-decided state is the newest accepted report of that source
    // (while a screen debounce is pending the previous decision is held on purpose).
    if ((view.rule === 'report' || view.rule === 'full_lifecycle') && arbiter.explain().pendingDebounce === null) {
      check(model.latest.get(view.source.replace(/^report:/, ''))?.state === view.state, 'stale report decided');
    }
    let revision = before.revision;
    for (const change of changes) {
      revision += 1;
      check(change.revision === revision, 'revisions must step by one');
      const moved = change.before.agent !== change.after.agent || change.before.state !== change.after.state || change.before.seen !== change.after.seen;
      check(moved || change.kind === 'released', 'a change record without a change');
    }
    check(view.revision === revision, 'revision moved without a record');
  }
}

test(`${RUNS} seeded interleavings agree with the reference model and never resurrect stale state`, () => {
  for (let run = 0; run < RUNS; run += 1) runOnce(BASE_SEED + run);
});
