import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'smol-toml';
import { integrate, launchedAgent } from '../../src/integration/integrate.ts';
import { launchFilesDir } from '../../src/integration/planner.ts';
import { isRootOwnedPath } from '../../src/integration/root-owned.ts';
import type { IntegrationContext, Launch } from '../../src/integration/launch.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';
import { waitFor } from '../../harness/wait.ts';

const manifests = new ManifestSet().all().map((manifest) => manifest.spec);
const hookArgv = ['/usr/bin/node', '/opt/corral/bin/corral', 'report', '--hook'];

function context(agent: string, dir: string, userEnv: NodeJS.ProcessEnv = {}): IntegrationContext {
  const spec = manifests.find((m) => m.id === agent)!.integration!;
  return { spec, hookArgv: [...hookArgv, spec.hook], dir, userEnv };
}

const launch = (command: string, args: string[] = [], env: Record<string, string> = {}): Launch => ({ command, args, env });

test('knows the launched agent by its program name, and only agents that declare an integration', () => {
  assert.equal(launchedAgent('/work/node_modules/.bin/claude', manifests)?.id, 'claude');
  assert.equal(launchedAgent('gemini', manifests)?.id, 'gemini');
  assert.equal(launchedAgent('bash', manifests), null);
});

test('Claude Code gets one --settings layer with a hook per event, and a launch with its own --settings is left alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-int-'));
  const planned = integrate(launch('claude', ['--resume']), context('claude', dir))!;
  assert.equal(planned.args[0], '--settings');
  assert.deepEqual(planned.args.slice(2), ['--resume']);
  const settings = JSON.parse(planned.args[1]!);
  assert.deepEqual(Object.keys(settings), ['hooks']);
  assert.equal(settings.hooks.Stop[0].hooks[0].command, '/usr/bin/node /opt/corral/bin/corral report --hook claude');
  assert.ok(settings.hooks.PermissionRequest && settings.hooks.UserPromptSubmit);
  assert.equal(integrate(launch('claude', ['--settings', '{}']), context('claude', dir)), null);
});

test("Gemini CLI gets a system-defaults file that keeps the one it would have read, with Corral's hooks added", () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-int-'));
  const theirs = join(dir, 'theirs.json');
  writeFileSync(theirs, JSON.stringify({ ui: { theme: 'x' }, hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'mine' }] }] } }));
  // What is written, wherever it is written (placement: the next tests).
  const anywhere = { ...context('gemini', dir, { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: theirs }) };
  anywhere.spec = { ...anywhere.spec, rootOwned: false };
  const planned = integrate(launch('gemini'), anywhere)!;
  const path = planned.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH!;
  assert.notEqual(path, theirs);
  const written = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(written.ui, { theme: 'x' });
  assert.equal(written.hooks.AfterAgent[0].hooks[0].command, 'mine', 'the user hook stays first');
  assert.equal(written.hooks.AfterAgent[1].hooks[0].command, '/usr/bin/node /opt/corral/bin/corral report --hook gemini');
  assert.deepEqual(JSON.parse(readFileSync(theirs, 'utf8')).hooks.AfterAgent.length, 1, 'their file is untouched');
});

test('Gemini CLI reads a system-defaults file only where root alone can write: elsewhere nothing is added, and the error says what to do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-int-')); // below /tmp, which everyone can write
  assert.equal(manifests.find((m) => m.id === 'gemini')!.integration!.rootOwned, true);
  assert.throws(() => integrate(launch('gemini'), context('gemini', dir)), /root owns.*corral integration install gemini/s);
});

test('a daemon running as root whose socket lies below /tmp keeps launch files in /run/corral; others keep them beside the socket', () => {
  const socket = join(mkdtempSync(join(tmpdir(), 'corral-int-')), 'corral.sock');
  assert.equal(launchFilesDir(socket, 1000), `${socket}.hooks`);
  const asRoot = launchFilesDir(socket, 0);
  if (isRootOwnedPath('/run')) assert.match(asRoot, /^\/run\/corral\/hooks-[0-9a-f]{12}$/);
  else assert.equal(asRoot, `${socket}.hooks`);
  if (isRootOwnedPath('/run')) assert.equal(launchFilesDir('/run/corral.sock', 0), '/run/corral.sock.hooks', 'a socket folder root alone can write keeps them');
});

test("Codex gets a notify override for this launch that chains to the user's own notify", () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-int-'));
  writeFileSync(join(dir, 'config.toml'), 'notify = ["notify-send", "Codex"]\nmodel = "x"\n');
  const planned = integrate(launch('codex', ['exec', 'hi'], { CODEX_HOME: dir }), context('codex', dir))!;
  assert.equal(planned.args[0], '-c');
  assert.deepEqual(planned.args.slice(2), ['exec', 'hi']);
  const override = parse(planned.args[1]!) as { notify: string[] };
  assert.deepEqual(override.notify, [...hookArgv, 'codex', '--chain', '["notify-send","Codex"]']);
  const plain = integrate(launch('codex', [], { CODEX_HOME: join(dir, 'none') }), context('codex', dir))!;
  assert.deepEqual((parse(plain.args[1]!) as { notify: string[] }).notify, [...hookArgv, 'codex']);
});

test('OpenCode gets one more config folder holding a plugin that hands each listed event to the hook on stdin, unless the folder variable is set', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-int-'));
  const out = join(dir, 'events.ndjson');
  // The "hook" appends its stdin to a file: the plugin runs it once per listed event.
  const sink = ['/bin/sh', '-c', `cat >> '${out}'; echo >> '${out}'`];
  const ctx = { ...context('opencode', dir), hookArgv: sink };
  const planned = integrate(launch('opencode'), ctx)!;
  assert.equal(planned.env.OPENCODE_CONFIG_DIR, dir);
  const plugin = await import(join(dir, 'plugins', 'corral.js'));
  const hooks = await plugin.CorralReport({});
  await hooks.event({ event: { id: '1', type: 'message.part.updated', properties: {} } });
  await hooks.event({ event: { id: '2', type: 'permission.asked', properties: { sessionID: 's' } } });
  await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').includes('permission.asked'), { what: 'the plugin to run the hook' });
  assert.doesNotMatch(readFileSync(out, 'utf8'), /message\.part/);
  assert.equal(integrate(launch('opencode', [], { OPENCODE_CONFIG_DIR: '/theirs' }), ctx), null);
  // Each assistant message's tokens go to the session's record (docs/usage.md), once per change, never through the hook.
  const info = { id: 'msg_1', role: 'assistant', sessionID: 'ses_1', modelID: 'm', providerID: 'p', tokens: { input: 1, output: 2, reasoning: 0, cache: { read: 3, write: 0 } }, time: { created: 5 } };
  for (const tokens of [{ ...info.tokens, output: 0, input: 0, cache: { read: 0, write: 0 } }, info.tokens, info.tokens, { ...info.tokens, output: 9 }]) {
    await hooks.event({ event: { id: 'm', type: 'message.updated', properties: { info: { ...info, tokens } } } });
  }
  await hooks.event({ event: { id: 'u', type: 'message.updated', properties: { info: { ...info, id: 'msg_0', role: 'user' } } } });
  await hooks.event({ event: { id: 'x', type: 'message.updated', properties: { info: { ...info, sessionID: '../x' } } } });
  const lines = readFileSync(join(dir, 'usage', 'ses_1.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((line) => [line.id, line.tokens.output]), [['msg_1', 2], ['msg_1', 9]], 'a message with tokens, again when they change; no user message, no empty tokens');
  assert.deepEqual(readdirSync(join(dir, 'usage')), ['ses_1.jsonl'], 'a session id is a name, never a path');
  assert.doesNotMatch(readFileSync(out, 'utf8'), /message\.updated/);
});
