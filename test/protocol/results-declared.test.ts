// The declarations are the source of every static type, so the daemon's code is compiled against
// them; this holds the live daemon to them too: each answer, and each event of a real pane's and a
// real agent's life, passes the compiled check of the schema its method or kind declares.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { EVENT_DATA, type EventKind } from '../../src/protocol/methods/events.ts';
import { ALL_METHODS } from '../../src/protocol/methods/index.ts';
import { useDaemon } from '../helpers/session.ts';

function mismatches(schema: TSchema, value: unknown): string[] {
  return [...TypeCompiler.Compile(schema).Errors(value)].slice(0, 5).map((error) => `${error.path}: ${error.message}`);
}

const declared = (name: string) => ALL_METHODS.find((method) => method.name === name)!;

describe('what the daemon answers fits what it declares', () => {
  const session = useDaemon();

  it('each method answers a result its declaration accepts', async () => {
    const agent = await session.fakeAgent(100, { name: 'declared' });
    await session.call('pane.spawn', { command: 'sh', args: ['-c', 'echo bye'], name: 'gone', cwd: session.daemon.dir });
    const calls: [string, object][] = [
      ['rpc.discover', {}],
      ['server.status', {}],
      ['server.manifests', {}],
      ['pane.list', {}],
      ['pane.get', { target: agent }],
      ['pane.read', { target: agent }],
      ['pane.read', { target: agent, source: 'scrollback' }],
      ['pane.send', { target: agent, text: '' }],
      ['agent.get', { target: agent }],
      ['agent.list', { all: true }],
      ['agent.read', { target: agent, source: 'detection' }],
      ['agent.explain', { target: agent }],
      ['agent.focus', { target: agent }],
      ['agent.queue', { target: agent }],
      ['agent.prompt', { target: agent, text: 'later', queue: true }],
      ['agent.clearQueue', { target: agent }],
      ['agent.wait', { targets: [agent], timeoutMs: 10_000, read: true }],
      ['events.cursor', {}],
      ['events.read', { since: 0, limit: 1000 }],
      ['inbox.list', {}],
      ['pane.reportAgent', { source: 'probe', agent: 'claude', state: 'working', session: 'outside' }],
      ['pane.kill', { target: 'gone' }],
    ];
    const wrong: string[] = [];
    for (const [name, params] of calls) {
      const found = mismatches(declared(name).result, await session.call(name, params));
      if (found.length > 0) wrong.push(`${name}: ${found.join('; ')}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('each event carries the data its kind declares', async () => {
    const { events } = await session.call('events.read', { since: 0, limit: 10_000 });
    const kinds = new Set<string>();
    const wrong: string[] = [];
    for (const event of events as { kind: EventKind; data: unknown }[]) {
      kinds.add(event.kind);
      const found = mismatches(EVENT_DATA[event.kind], event.data);
      if (found.length > 0) wrong.push(`${event.kind}: ${found.join('; ')}`);
    }
    assert.deepEqual(wrong, []);
    for (const kind of ['pane.created', 'pane.exited', 'pane.removed', 'agent.detected', 'agent.stateChanged']) {
      assert.ok(kinds.has(kind), `the run produced a ${kind} event (got ${[...kinds].join(', ')})`);
    }
  });
});
