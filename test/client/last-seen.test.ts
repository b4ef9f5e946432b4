import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LastSeenFile, lastSeenPath, MAX_SEEN_AGENTS_PER_HOST, MAX_SEEN_FILE_BYTES, type SeenHost } from '../../src/client/fleet/last-seen.ts';
import { makeTempDir } from '../../harness/daemon.ts';
import { agentInfo } from '../helpers/agent-info.ts';

function seenFile(): LastSeenFile {
  return new LastSeenFile(lastSeenPath('/run/corral.sock', { XDG_STATE_HOME: makeTempDir('corral-seen-') }));
}

const box = (agents = [agentInfo('w1:p1', 'blocked', { name: 'south' })]): SeenHost => ({ ssh: 'me@box2', seenAt: 1_000, agents });

test("a host's agents written by one command are read by the next, from a file only its user reads", () => {
  const file = seenFile();
  assert.deepEqual(file.read(), new Map(), 'no file reads as nothing seen');
  assert.ok(file.write(new Map([['box2', box()]])));
  assert.equal(statSync(file.path).mode & 0o777, 0o600);
  assert.equal(statSync(join(file.path, '..')).mode & 0o777, 0o700);
  assert.deepEqual(file.read(), new Map([['box2', box()]]));
});

test('one file per local daemon socket, under $XDG_STATE_HOME/corral', () => {
  const env = { XDG_STATE_HOME: '/state' };
  assert.match(lastSeenPath('/a.sock', env), /^\/state\/corral\/fleet-seen-[0-9a-f]{12}\.json$/);
  assert.notEqual(lastSeenPath('/a.sock', env), lastSeenPath('/b.sock', env));
});

test('bounded: at most MAX_SEEN_AGENTS_PER_HOST agents a host, prompts left out past MAX_SEEN_FILE_BYTES, never a larger file', () => {
  const file = seenFile();
  const many = Array.from({ length: MAX_SEEN_AGENTS_PER_HOST + 20 }, (_, i) => agentInfo(`w1:p${i}`, 'idle'));
  assert.ok(file.write(new Map([['box2', box(many)]])));
  assert.equal(file.read().get('box2')!.agents.length, MAX_SEEN_AGENTS_PER_HOST);

  const prompt = { id: 'p1', kind: 'permission' as const, text: 'x'.repeat(4000), choices: [], freeText: false, note: null, source: 'screen:x', complete: true, incomplete: null };
  const asking = Array.from({ length: 400 }, (_, i) => agentInfo(`w1:p${i}`, 'blocked', { prompt }));
  assert.ok(file.write(new Map([['box2', box(asking)]])));
  assert.ok(statSync(file.path).size <= MAX_SEEN_FILE_BYTES);
  const kept = file.read().get('box2')!.agents;
  assert.equal(kept.length, 400);
  assert.ok(kept.every((a) => a.prompt === undefined && a.state === 'blocked'), 'the states are kept, the prompts left out');

  const huge = Array.from({ length: 40 }, (_, h) => [`h${h}`, box(Array.from({ length: 400 }, (_, i) => agentInfo(`w1:p${i}`, 'idle', { title: 't'.repeat(200) })))] as const);
  assert.equal(file.write(new Map(huge)), false, 'too large even without prompts: not written');
  assert.equal(file.read().get('box2')!.agents.length, 400, 'the file before it stays');
});

test('a file that is not what a command writes reads as nothing seen, never fails the command', () => {
  const file = seenFile();
  mkdirSync(join(file.path, '..'), { recursive: true });
  const cases: [string, () => void][] = [
    ['not JSON', () => writeFileSync(file.path, '{', { mode: 0o600 })],
    ['another version', () => writeFileSync(file.path, JSON.stringify({ version: 9, hosts: { box2: box() } }), { mode: 0o600 })],
    ['readable by others', () => (writeFileSync(file.path, JSON.stringify({ version: 1, hosts: { box2: box() } })), chmodSync(file.path, 0o644))],
    ['too large', () => (writeFileSync(file.path, ' '.repeat(MAX_SEEN_FILE_BYTES + 1)), chmodSync(file.path, 0o600))],
  ];
  for (const [what, make] of cases) {
    make();
    assert.deepEqual(file.read(), new Map(), what);
  }
  const elsewhere = join(makeTempDir('corral-seen-'), 'other.json');
  writeFileSync(elsewhere, JSON.stringify({ version: 1, hosts: { box2: box() } }), { mode: 0o600 });
  const linked = new LastSeenFile(join(makeTempDir('corral-seen-'), 'link.json'));
  symlinkSync(elsewhere, linked.path);
  assert.deepEqual(linked.read(), new Map(), 'a link is not followed');

  // A broken host entry or agent is left out; the rest are read.
  writeFileSync(file.path, JSON.stringify({ version: 1, hosts: { bad: { ssh: 3, seenAt: 1, agents: [] }, box2: { ...box(), agents: [{ id: 'w1:p9', state: 'nonsense' }, ...box().agents] } } }), { mode: 0o600 });
  chmodSync(file.path, 0o600);
  assert.deepEqual([...file.read()], [['box2', box()]]);
  assert.ok(readFileSync(file.path, 'utf8').includes('nonsense'), 'reading never rewrites');
});
