// Every error code the published document declares is produced here, live: a real daemon on a real
// socket, each method-declared code through each method that declares it, the transport's codes through
// the framing, `slow_consumer` through an event stream, `cancelled` (which no client receives) in the
// daemon's log. Every error any of these calls answers must be declared by the method that answered it.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { createECDH, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { MAX_CONNECTIONS } from '../../src/daemon/daemon.ts';
import { MAX_PENDING_INPUT_BYTES } from '../../src/daemon/panes/input-room.ts';
import { MAX_REPLY_BYTES } from '../../src/daemon/rpc/connection.ts';
import { MAX_FRAME_BYTES } from '../../src/protocol/framing.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

const REPORT_PROXY = fileURLToPath(new URL('../fixtures/report-proxy.mjs', import.meta.url));

/** Codes the transport answers (framing, request shape, dispatch), whatever the method. */
const TRANSPORT = ['parse_error', 'invalid_request', 'method_not_found', 'frame_too_large', 'frame_timeout', 'too_many_connections', 'reply_too_large'];
/**
 * A code that marks a defect: a handler that threw something other than a stable error. It is declared
 * for every method so that clients know its shape, and it must never be producible on purpose; the
 * test asserts that none of its calls produce it.
 */
const DEFECT = 'internal_error';

/** The smallest valid params of each method that takes one pane, for a given target. */
const ONE_PANE: Record<string, (target: string) => object> = {
  'pane.get': (target) => ({ target }),
  'pane.kill': (target) => ({ target }),
  'pane.respawn': (target) => ({ target }),
  'pane.resize': (target) => ({ target, cols: 80, rows: 24 }),
  'pane.send': (target) => ({ target, text: '' }),
  'pane.read': (target) => ({ target }),
  'pane.focus': (target) => ({ target }),
  'pane.attach': (target) => ({ target }),
  'pane.detach': (target) => ({ target }),
  'pane.record': (target) => ({ target }),
  'pane.reportAgent': (target) => ({ target, source: 'probe', agent: 'claude', state: 'idle' }),
  'pane.releaseAgent': (target) => ({ target, source: 'probe' }),
  'pane.reportSession': (target) => ({ target, source: 'probe', session: 'probe-session' }),
  'pane.reportMetadata': (target) => ({ target, source: 'probe', title: 'probe' }),
  'agent.get': (target) => ({ target }),
  'agent.explain': (target) => ({ target }),
  'agent.read': (target) => ({ target }),
  'agent.focus': (target) => ({ target }),
  'agent.wait': (target) => ({ targets: [target], timeoutMs: 0 }),
  'agent.prompt': (target) => ({ target, text: 'probe' }),
  'agent.answer': (target) => ({ target, choice: 1, timeoutMs: 1000 }),
  'agent.queue': (target) => ({ target }),
  'agent.clearQueue': (target) => ({ target }),
  'policy.check': (target) => ({ target }),
  'policy.log': (target) => ({ target }),
  'policy.hookRequest': (target) => ({ target, source: 'probe', agent: 'claude', tool: 'Bash', command: 'true' }),
};

/** Methods that change nothing on a pane that is not a running agent: safe to try on any target. */
const HARMLESS = ['pane.get', 'pane.read', 'pane.focus', 'pane.detach', 'pane.reportMetadata', 'agent.get', 'agent.explain', 'agent.read', 'agent.focus', 'agent.wait', 'agent.queue', 'agent.clearQueue', 'policy.check', 'policy.log'];

interface Declared {
  byMethod: Map<string, Set<string>>;
  components: Set<string>;
  notified: Set<string>;
}

describe('every declared error code can be produced, and every produced one is declared', () => {
  let daemon: DaemonProcess;
  let client: RawClient;
  let tempDir = '';
  let declared: Declared;
  let nextId = 1;
  let externalId = '';
  /** Where each code was seen: a method name, `transport`, `notification` or `log`. */
  const produced = new Map<string, Set<string>>();
  const seen = (where: string, code: string) => produced.set(where, (produced.get(where) ?? new Set()).add(code));

  /** One request on the shared connection; any error it answers is recorded against `method`. */
  async function attempt(method: string, params: unknown, on: RawClient = client): Promise<any> {
    const reply = await on.call(nextId++, method, params);
    if (reply.error) seen(method, reply.error.data?.code);
    return reply;
  }

  async function expectError(method: string, params: unknown, code: string, on: RawClient = client): Promise<any> {
    const reply = await attempt(method, params, on);
    assert.equal(reply.error?.data?.code, code, `${method} ${JSON.stringify(params).slice(0, 200)} -> ${JSON.stringify(reply.error ?? reply.result).slice(0, 300)}`);
    return reply.error;
  }

  async function ok(method: string, params: unknown): Promise<any> {
    const reply = await attempt(method, params);
    assert.equal(reply.error, undefined, `${method}: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  async function spawn(params: object): Promise<string> {
    return (await ok('pane.spawn', { cwd: daemon.dir, ...params })).id;
  }

  async function fakeAgent(name: string, env: Record<string, string> = {}): Promise<string> {
    const id = await spawn({ command: process.execPath, args: [FAKE_CLAUDE], name, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '200', ...env } });
    await waitFor(async () => (await ok('agent.get', { target: id })).rawState === 'idle', { what: `${name} idle`, timeoutMs: 30_000 });
    return id;
  }

  async function exitedPane(name: string): Promise<string> {
    const id = await spawn({ command: 'sh', args: ['-c', 'echo bye'], name });
    await waitFor(async () => (await ok('pane.get', { target: id })).state === 'exited', { what: `${name} exited`, timeoutMs: 30_000 });
    return id;
  }

  before(async () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    // The smallest subscriber buffer, so a stalled subscriber is dropped after a few hundred events,
    // and the smallest ring, so that those events push the stream's first ones out.
    // A budget that one turn of the agent named `spent` spends (budget_exceeded).
    const budget = '[[budgets]]\nscope = "agent"\nmatch = "spent"\nperiod = "session"\ntokens = 1\n';
    writeFileSync(join(dir, 'config', 'corral', 'config.toml'), `[events]\nsubscriber_buffer_bytes = 4096\nretain = 100\n\n${budget}`);
    daemon = await startDaemon({ dir });
    tempDir = dir;
    client = await RawClient.connect(daemon.socket);
    const document = (await client.call(nextId++, 'rpc.discover', {})).result;
    const dropped = document['x-notifications'].find((n: { name: string }) => n.name === 'events.dropped');
    declared = {
      byMethod: new Map(document.methods.map((m: any) => [m.name, new Set(m.errors.map((e: any) => e.data.code))])),
      components: new Set(Object.keys(document.components.errors)),
      notified: new Set([dropped.params.properties.code.const ?? dropped.params.properties.code.enum].flat()),
    };
  });

  after(async () => {
    client?.close();
    await daemon?.dispose();
  });

  it('the document sorts every code it declares: by a method, the transport, a notification', () => {
    const sorted = new Set([...[...declared.byMethod.values()].flatMap((codes) => [...codes]), ...TRANSPORT, ...declared.notified]);
    assert.deepEqual([...declared.components].filter((code) => !sorted.has(code)), [], 'declared in components only');
    assert.deepEqual([...sorted].filter((code) => !declared.components.has(code)), [], 'not in components');
  });

  it('invalid_params through every method (an unknown field)', async () => {
    for (const method of declared.byMethod.keys()) await expectError(method, { unknownField: 1 }, 'invalid_params');
  });

  it('pane_not_found through every method that declares it', async () => {
    for (const [method, codes] of declared.byMethod) {
      if (!codes.has('pane_not_found')) continue;
      const params = ONE_PANE[method];
      assert.ok(params, `${method} declares pane_not_found: add it to ONE_PANE`);
      await expectError(method, params('no-such-pane'), 'pane_not_found');
    }
  });

  it('pane_exited through every method that declares it', async () => {
    const exited = await exitedPane('exited');
    for (const [method, codes] of declared.byMethod) {
      if (!codes.has('pane_exited')) continue;
      const params = ONE_PANE[method];
      assert.ok(params, `${method} declares pane_exited: add it to ONE_PANE`);
      const attacher = await RawClient.connect(daemon.socket);
      await expectError(method, params(exited), 'pane_exited', attacher);
      attacher.close();
    }
  });

  it('pane_external through every method that declares it, on an agent known from its hooks only', async () => {
    const report = await ok('pane.reportAgent', { source: 'hook:claude', agent: 'claude', state: 'idle', session: 'outside-1' });
    assert.equal(report.accepted, true, JSON.stringify(report));
    const { panes } = await ok('pane.list', {});
    const external = panes.find((pane: { external?: { session: string } }) => pane.external?.session === 'outside-1');
    assert.ok(external, 'the external pane is listed');
    externalId = external.id;
    for (const [method, codes] of declared.byMethod) {
      if (!codes.has('pane_external')) continue;
      const params = ONE_PANE[method];
      assert.ok(params, `${method} declares pane_external: add it to ONE_PANE`);
      const other = await RawClient.connect(daemon.socket);
      await expectError(method, params(externalId), 'pane_external', other);
      other.close();
    }
  });

  it('pane.spawn: name_taken and spawn_failed; pane.respawn: pane_running and spawn_failed', async () => {
    await spawn({ command: 'sleep', args: ['300'], name: 'taken' });
    await expectError('pane.spawn', { command: 'sleep', args: ['300'], name: 'taken', cwd: daemon.dir }, 'name_taken');
    await expectError('pane.spawn', { command: 'no-such-command-anywhere', cwd: daemon.dir }, 'spawn_failed');
    await expectError('pane.respawn', { target: 'taken' }, 'pane_running');
    const script = join(daemon.dir, 'once.sh');
    writeFileSync(script, '#!/bin/sh\necho once\n');
    chmodSync(script, 0o755);
    await spawn({ command: script, name: 'once' });
    await waitFor(async () => (await ok('pane.get', { target: 'once' })).state === 'exited', { what: 'once exited', timeoutMs: 30_000 });
    unlinkSync(script); // gone when it is started again
    await expectError('pane.respawn', { target: 'once' }, 'spawn_failed');
  });

  it('pane.send: invalid_key and pane_input_full', async () => {
    const id = await spawn({ command: 'sleep', args: ['300'] }); // reads nothing
    await expectError('pane.send', { target: id, keys: ['NoSuchKey'] }, 'invalid_key');
    const chunk = `${'x'.repeat(1023)}\r`.repeat(512);
    let code: string | undefined;
    for (let i = 0; i < (MAX_PENDING_INPUT_BYTES >> 19) + 2 && code === undefined; i += 1) {
      code = (await attempt('pane.send', { target: id, text: chunk })).error?.data?.code;
    }
    assert.equal(code, 'pane_input_full');
  });

  it('agent.prompt and agent.answer: agent_not_found, agent_blocked, agent_not_blocked, composer_not_empty, prompt_changed, choice_not_offered, invalid_key, timeout', async () => {
    const shell = await spawn({ command: 'sh', args: ['-c', 'echo no agent here; exec sleep 300'], name: 'shell' });
    await waitFor(async () => (await ok('pane.read', { target: shell })).text.includes('no agent here'), { what: 'the shell to draw' });
    await expectError('agent.prompt', { target: shell, text: 'hello' }, 'agent_not_found');
    await expectError('agent.answer', { target: shell, choice: 1 }, 'agent_not_found');
    const idle = await fakeAgent('idle');
    await expectError('agent.answer', { target: idle, choice: 1 }, 'agent_not_blocked');
    const drafted = await fakeAgent('drafted');
    await ok('agent.prompt', { target: drafted, text: 'a draft', submit: false });
    await waitFor(async () => (await ok('agent.get', { target: drafted })).composer === 'a draft', { what: 'the draft in the input box' });
    await expectError('agent.prompt', { target: drafted, text: 'hello' }, 'composer_not_empty');
    const blocked = await fakeAgent('blocked');
    await ok('agent.prompt', { target: blocked, text: 'perm' });
    await waitFor(async () => (await ok('agent.get', { target: blocked })).state === 'blocked', { what: 'the permission form', timeoutMs: 30_000 });
    await expectError('agent.prompt', { target: blocked, text: 'hello' }, 'agent_blocked');
    await expectError('agent.answer', { target: blocked, keys: ['NoSuchKey'] }, 'invalid_key');
    await expectError('agent.answer', { target: blocked, promptId: 'p0-not-shown', choice: 'yes' }, 'prompt_changed');
    await waitFor(async () => (await ok('agent.get', { target: blocked })).prompt?.choices.length > 0, { what: 'the form\'s choices' });
    await expectError('agent.answer', { target: blocked, choice: 9 }, 'choice_not_offered');
    // The form ignores 3: the agent stays blocked past the answer's timeout.
    await expectError('agent.answer', { target: blocked, keys: ['3'], timeoutMs: 300 }, 'timeout');
  });

  it('agent.prompt: budget_exceeded, once a budget of the agent is spent', async () => {
    const spent = await fakeAgent('spent', { FAKE_HOOKS: '1', FAKE_TRANSCRIPT: join(tempDir, 'spent.jsonl') });
    await ok('agent.prompt', { target: spent, text: 'spend' });
    await waitFor(async () => (await ok('agent.get', { target: spent })).usage?.tokens?.input > 0, { what: 'the turn\'s usage', timeoutMs: 30_000 });
    await waitFor(async () => (await ok('inbox.list', {})).items.some((item: any) => item.pane.id === spent && item.budget?.percent === '100'), { what: 'the budget judged spent' });
    await expectError('agent.prompt', { target: spent, text: 'more' }, 'budget_exceeded');
  });

  it('agent.prompt: pane_input_full, into an agent that reads nothing', async () => {
    const id = await fakeAgent('stopped');
    const { pid } = await ok('pane.get', { target: id });
    process.kill(pid, 'SIGSTOP');
    try {
      const text = `${'x'.repeat(1023)}\r`.repeat(512);
      let code: string | undefined;
      for (let i = 0; i < (MAX_PENDING_INPUT_BYTES >> 19) + 2 && code === undefined; i += 1) {
        code = (await attempt('agent.prompt', { target: id, text, submit: false })).error?.data?.code;
      }
      assert.equal(code, 'pane_input_full');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  it('agent.wait: pane_not_found, no_agent, agent_gone and timeout', async () => {
    await expectError('agent.wait', { targets: ['no-such-pane'] }, 'pane_not_found');
    await expectError('agent.wait', { targets: ['shell'] }, 'no_agent');
    await expectError('agent.wait', { targets: ['exited'] }, 'agent_gone');
    await expectError('agent.wait', { targets: ['idle'], until: ['working'], timeoutMs: 0 }, 'timeout');
  });

  it('events.subscribe and events.read: stream_changed for a cursor ahead of the stream, before it, or of another epoch', async () => {
    const subscriber = await RawClient.connect(daemon.socket);
    await expectError('events.subscribe', { since: 1e15 }, 'stream_changed', subscriber);
    subscriber.close();
    await expectError('events.read', { since: 1 }, 'stream_changed');
    await expectError('events.read', { since: 0, epoch: 'another' }, 'stream_changed');
  });

  it('server.reloadConfig: config_invalid and policy_invalid, and the files removed again', async () => {
    const folder = join(daemon.dir, 'config', 'corral');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'config.toml'), '[panes]\nkeep = 1\n');
    await expectError('server.reloadConfig', {}, 'config_invalid');
    unlinkSync(join(folder, 'config.toml'));
    writeFileSync(join(folder, 'policy.toml'), '[[rule]]\naction = "sometimes"\n');
    await expectError('server.reloadConfig', {}, 'policy_invalid');
    unlinkSync(join(folder, 'policy.toml'));
  });

  it('push.answer, push.peek: answer_token_refused; push.test, push.set: push_device_not_found; push.subscribe: push_limit', async () => {
    await expectError('push.answer', { token: 'forged', choice: 'yes' }, 'answer_token_refused');
    await expectError('push.peek', { token: 'forged', choice: 'yes' }, 'answer_token_refused');
    await expectError('push.test', { id: 'd0000000000' }, 'push_device_not_found');
    await expectError('push.set', { id: 'd0000000000', quietHours: 'off' }, 'push_device_not_found');
    const keys = () => ({ p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') });
    const ids: string[] = [];
    for (let n = 0; ; n++) {
      const reply = await attempt('push.subscribe', { subscription: { endpoint: `https://push.invalid/device-${n}`, keys: keys() } });
      if (reply.error) {
        assert.equal(reply.error.data.code, 'push_limit');
        break;
      }
      ids.push(reply.result.device.id);
    }
    for (const id of ids) await ok('push.remove', { id });
  });

  it('webhook.test: webhook_not_configured without [notify.webhook]; webhook_failed from a daemon whose receiver is not there', async () => {
    await expectError('webhook.test', {}, 'webhook_not_configured');
    const dir = makeTempDir();
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    const listener = createServer();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    await new Promise((resolve) => listener.close(resolve));
    writeFileSync(join(dir, 'config', 'corral', 'config.toml'), `[notify.webhook]\nurl = "http://127.0.0.1:${port}/hook"\n`);
    const other = await startDaemon({ dir });
    try {
      const raw = await RawClient.connect(other.socket);
      try {
        const error = await expectError('webhook.test', {}, 'webhook_failed', raw);
        assert.match(error.message, /nothing listens at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
      } finally {
        raw.close();
      }
    } finally {
      await other.dispose();
    }
  });

  it('no method answers a code it does not declare, on any kind of pane', async () => {
    const targets = ['no-such-pane', 'exited', 'shell', 'idle', 'blocked', externalId];
    for (const method of HARMLESS) for (const target of targets) await attempt(method, ONE_PANE[method]!(target));
    // Those that would change a running agent, on the panes where they must fail.
    for (const target of ['no-such-pane', 'exited', 'shell', externalId]) {
      await attempt('agent.prompt', ONE_PANE['agent.prompt']!(target));
      await attempt('pane.send', ONE_PANE['pane.send']!(target));
      await attempt('pane.resize', ONE_PANE['pane.resize']!(target));
    }
    for (const target of ['no-such-pane', 'exited', 'shell', 'idle', externalId]) await attempt('agent.answer', ONE_PANE['agent.answer']!(target));
    for (const target of ['shell', 'idle', 'blocked', externalId]) await attempt('pane.respawn', ONE_PANE['pane.respawn']!(target));
    for (const method of ['pane.reportAgent', 'pane.releaseAgent', 'pane.reportSession', 'pane.attach']) {
      for (const target of ['no-such-pane', 'exited', externalId]) {
        const other = await RawClient.connect(daemon.socket);
        await attempt(method, ONE_PANE[method]!(target), other);
        other.close();
      }
    }
    const undeclared = [...produced].flatMap(([method, codes]) =>
      declared.byMethod.has(method) ? [...codes].filter((code) => !declared.byMethod.get(method)!.has(code)).map((code) => `${method}: ${code}`) : [],
    );
    assert.deepEqual(undeclared, []);
  });

  it('the transport: parse_error, invalid_request, method_not_found, frame_too_large, frame_timeout, too_many_connections, reply_too_large', async () => {
    const transport = (reply: any) => reply?.error?.data?.code && seen('transport', reply.error.data.code);
    const raw = await RawClient.connect(daemon.socket);
    raw.write('{"jsonrpc": "2.0", "id": 1,\n');
    transport(await raw.next());
    raw.write('{"jsonrpc": "1.0", "id": 2, "method": "server.status"}\n');
    transport(await raw.next());
    raw.write('{"jsonrpc": "2.0", "id": 3, "method": "pane.nothing"}\n');
    transport(await raw.next());
    // A batch whose one reply holds more than MAX_REPLY_BYTES: each rpc.discover answers the whole document.
    const documentBytes = JSON.stringify((await attempt('rpc.discover', {})).result).length;
    const batch = Array.from({ length: Math.ceil(MAX_REPLY_BYTES / documentBytes) + 1 }, (_, i) => ({ jsonrpc: '2.0', id: 100 + i, method: 'rpc.discover' }));
    raw.write(`${JSON.stringify(batch)}\n`);
    transport(await raw.next(60_000));
    raw.close();

    const unfinished = await RawClient.connect(daemon.socket);
    unfinished.write('{"jsonrpc":"2.0","id":1,"method":"server.status"');
    transport(await unfinished.next(60_000)); // the daemon gives up on the line after its frame timeout
    unfinished.close();
    const tooLarge = await RawClient.connect(daemon.socket);
    tooLarge.write(Buffer.alloc(MAX_FRAME_BYTES + 1, 'x'));
    transport(await tooLarge.next(30_000));
    tooLarge.close();

    // This test's own connection stays open: of MAX_CONNECTIONS more, at least the last is refused.
    const before = (await ok('server.status', {})).connections;
    const held: Socket[] = [];
    const refusals: string[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS; i += 1) {
        const socket = connect(daemon.socket);
        socket.on('error', () => {});
        socket.setEncoding('utf8');
        socket.on('data', (text: string) => refusals.push(...text.split('\n').filter(Boolean)));
        await new Promise((resolve) => socket.once('connect', resolve));
        held.push(socket);
      }
      await waitFor(() => refusals.length > 0, { what: 'a connection refused', timeoutMs: 30_000 });
      transport(JSON.parse(refusals[0]!));
    } finally {
      for (const socket of held) socket.destroy();
    }
    // The daemon learns of the closes in its own time: until it has, a next test's connection may be
    // the one refused (and then wait for events that never come to it).
    await waitFor(async () => (await ok('server.status', {})).connections <= before, { what: 'the held connections to be closed', timeoutMs: 30_000 });
    assert.deepEqual([...(produced.get('transport') ?? [])].sort(), [...TRANSPORT].sort());
  });

  it('slow_consumer, in events.dropped, to a subscriber that stopped reading', async () => {
    const subscriber = connect(daemon.socket);
    await new Promise<void>((resolve, reject) => subscriber.once('connect', resolve).once('error', reject));
    subscriber.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'events.subscribe', params: {} })}\n`);
    const first = await new Promise<string>((resolve) => subscriber.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    assert.ok(JSON.parse(first.split('\n')[0]!).result, `the subscription was taken: ${first.slice(0, 300)}`);
    subscriber.pause();
    const dropped = () => daemon.stderr().includes('slow event consumer dropped');
    // The daemon destroys a dropped connection after a short grace with whatever is unsent: read from
    // the moment the drop is logged, not after the flood.
    const drain = () =>
      new Promise<string>((resolve) => {
        let text = '';
        subscriber.setEncoding('utf8');
        subscriber.on('data', (chunk: string) => (text += chunk));
        subscriber.on('close', () => resolve(text));
        subscriber.on('error', () => resolve(text));
        subscriber.resume();
      });
    // The flood is metadata, reported from inside a pane (through a relay there), as it must be.
    const relay = join(daemon.dir, 'flood-relay.sock');
    const relayPane = await spawn({ command: process.execPath, args: [REPORT_PROXY, relay] });
    await waitFor(() => existsSync(relay), { what: 'the relay to listen' });
    const inside = await RawClient.connect(relay);
    const tailRead = waitFor(dropped, { what: 'the drop', timeoutMs: 300_000 }).then(drain);
    const title = 't'.repeat(240);
    for (let i = 0; i < 20_000 && !dropped(); i += 1) {
      const reply = await attempt('pane.reportMetadata', { target: relayPane, source: `flood${i % 2}`, title: `${i} ${title}`, stateLabel: 's'.repeat(64) }, inside);
      assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    }
    inside.close();
    const tail = await tailRead;
    const last = JSON.parse(tail.trim().split('\n').at(-1)!);
    assert.equal(last.method, 'events.dropped');
    seen('notification', last.params.code);
  });

  it('events.subscribe and events.read: cursor_too_old once the flood above pushed the stream\'s first events out of the ring', async () => {
    const subscriber = await RawClient.connect(daemon.socket);
    await expectError('events.subscribe', { since: 0 }, 'cursor_too_old', subscriber);
    subscriber.close();
    await expectError('events.read', { since: 0 }, 'cursor_too_old');
  });

  it('cancelled, in the daemon log, for a wait and an answer whose client went away', async () => {
    const waiter = await RawClient.connect(daemon.socket);
    waiter.request(1, 'agent.wait', { targets: ['idle'], until: ['blocked'] });
    await waitFor(async () => (await ok('server.status', {})).waits === 1, { what: 'the wait to be pending' });
    waiter.close();
    const answerer = await RawClient.connect(daemon.socket);
    answerer.request(1, 'agent.answer', { target: 'blocked', keys: ['3'], timeoutMs: 600_000 });
    assert.ok((await answerer.call(2, 'server.status', {})).result, 'the answer started before this reply');
    answerer.close();
    for (const method of ['agent.wait', 'agent.answer']) {
      const line = await waitFor(() => daemon.stderr().split('\n').find((l) => l.includes('"code":"cancelled"') && l.includes(`"method":"${method}"`)), {
        what: `${method} cancelled in the log`,
        timeoutMs: 30_000,
      });
      seen(`log:${method}`, JSON.parse(line!).code);
    }
  });

  it('shutting_down through every method while the daemon stops', async () => {
    // A pane that ignores SIGHUP holds the stop for the kill grace, with the connections still open.
    await spawn({ command: 'sh', args: ['-c', "trap '' HUP; echo stubborn; exec sleep 300"], name: 'stubborn' });
    await waitFor(async () => (await ok('pane.read', { target: 'stubborn' })).text.includes('stubborn'), { what: 'the stubborn pane' });
    await ok('server.stop', { panes: true });
    let reply: any;
    await waitFor(async () => (reply = await client.call(nextId++, 'server.status', {})).error, { what: 'the stop to begin' });
    assert.equal(reply.error.data.code, 'shutting_down');
    const methods = [...declared.byMethod.keys()];
    client.write(`${JSON.stringify(methods.map((method, i) => ({ jsonrpc: '2.0', id: 10_000 + i, method, params: {} })))}\n`);
    const replies: any[] = await client.next(30_000);
    for (const [i, method] of methods.entries()) {
      const one = replies.find((r) => r.id === 10_000 + i);
      assert.equal(one?.error?.data?.code, 'shutting_down', method);
      seen(method, one.error.data.code);
    }
  });

  it('adds up: every declared code was produced where it is declared, and internal_error never', () => {
    const missing: string[] = [];
    for (const [method, codes] of declared.byMethod) {
      for (const code of codes) {
        if (code === DEFECT) continue;
        const here = code === 'cancelled' ? produced.get(`log:${method}`) : produced.get(method);
        if (!here?.has(code)) missing.push(`${method}: ${code}`);
      }
    }
    for (const code of TRANSPORT) if (!produced.get('transport')?.has(code)) missing.push(`transport: ${code}`);
    for (const code of declared.notified) if (!produced.get('notification')?.has(code)) missing.push(`notification: ${code}`);
    assert.deepEqual(missing, [], 'declared but not produced');
    const defects = [...produced].filter(([, codes]) => codes.has(DEFECT)).map(([where]) => where);
    assert.deepEqual(defects, [], 'internal_error produced');
  });
});

describe('a wait pending when the daemon stops and leaves its panes running', () => {
  it('is answered shutting_down before the connection closes', async () => {
    const daemon = await startDaemon();
    try {
      const client = await RawClient.connect(daemon.socket);
      const pane = (await client.call(1, 'pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], cwd: daemon.dir, env: { CORRAL_AGENT: 'claude' } })).result;
      await waitFor(async () => (await client.call(2, 'agent.get', { target: pane.id })).result?.rawState === 'idle', { what: 'the agent', timeoutMs: 30_000 });
      const waiter = await RawClient.connect(daemon.socket);
      waiter.request(1, 'agent.wait', { targets: [pane.id], until: ['blocked'] });
      await waitFor(async () => (await client.call(3, 'server.status', {})).result.waits === 1, { what: 'the wait to be pending' });
      await client.call(4, 'server.stop', { panes: false });
      const reply = await waiter.next(30_000);
      assert.equal(reply.error?.data?.code, 'shutting_down');
      waiter.close();
      client.close();
    } finally {
      await daemon.dispose();
    }
  });
});
