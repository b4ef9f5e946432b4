import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentLaunch, integrate } from '../../src/integration/integrate.ts';
import type { Launch } from '../../src/integration/launch.ts';
import { shellWords, unwrapLaunch } from '../../src/integration/wrapper.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const manifests = new ManifestSet().all().map((manifest) => manifest.spec);
const launch = (command: string, args: string[] = [], env: Record<string, string> = {}): Launch => ({ command, args, env });

/** The launch with the agent's hooks added where they belong, as the planner does it; null when none is found. */
function integrated(outer: Launch): Launch | null {
  const found = agentLaunch(outer, manifests);
  if (!found) return null;
  const dir = mkdtempSync(join(tmpdir(), 'corral-wrap-'));
  const planned = integrate(found.inner, { spec: { ...found.spec.integration!, rootOwned: false }, hookArgv: ['/bin/corral', 'report', '--hook', found.spec.integration!.hook], dir, userEnv: {} });
  if (!planned) return null;
  const { files: _files, summary: _summary, ...inner } = planned;
  return found.wrap(inner);
}

describe('finding the agent inside env, sh -c and node', () => {
  it('env: options and assignments stay in front, the hooks go to the agent after them', () => {
    const outer = launch('/usr/bin/env', ['-u', 'DEBUG', 'FOO=1', 'claude', '--resume']);
    const result = integrated(outer)!;
    assert.equal(result.command, '/usr/bin/env');
    assert.deepEqual(result.args.slice(0, 4), ['-u', 'DEBUG', 'FOO=1', 'claude']);
    assert.equal(result.args[4], '--settings');
    assert.equal(result.args.at(-1), '--resume');
  });

  it('env: a variable the hooks need goes in as NAME=VALUE, which env -i cannot clear', () => {
    const result = integrated(launch('env', ['-i', 'HOME=/h', 'opencode']))!;
    const [home, added, command] = result.args.slice(1);
    assert.equal(home, 'HOME=/h');
    assert.match(added!, /^OPENCODE_CONFIG_DIR=\//);
    assert.equal(command, 'opencode');
  });

  it('sh -c: a plain command line is rewritten with the hooks, quoted for the shell, exec and assignments kept', () => {
    const result = integrated(launch('/bin/sh', ['-c', "MODE='fast' exec /opt/bin/claude --model \"opus\" 'a b'", 'sh']))!;
    assert.equal(result.args[0], '-c');
    assert.equal(result.args[2], 'sh');
    const words = shellWords(result.args[1]!)!.map((word) => word.value);
    assert.deepEqual(words.slice(0, 4), ['MODE=fast', 'exec', '/opt/bin/claude', '--settings']);
    assert.deepEqual(JSON.parse(words[4]!).hooks.Stop[0].hooks[0].command, '/bin/corral report --hook claude');
    assert.deepEqual(words.slice(5), ['--model', 'opus', 'a b']);
  });

  it('sh -c: an added variable is assigned in the script, before exec', () => {
    const result = integrated(launch('bash', ['-c', 'exec opencode']))!;
    assert.match(result.args[1]!, /^OPENCODE_CONFIG_DIR=\/\S+ exec opencode$/);
  });

  it('node: the script is the agent, by its name or by the package it lies in; node options stay in front', () => {
    const byName = integrated(launch('/usr/bin/node', ['--no-warnings', '-r', 'x.js', '/usr/local/bin/claude', '-p']))!;
    assert.deepEqual(byName.args.slice(0, 5), ['--no-warnings', '-r', 'x.js', '/usr/local/bin/claude', '--settings']);
    assert.equal(byName.args.at(-1), '-p');
    const byPackage = integrated(launch('node20', ['--max-old-space-size=4096', '/usr/lib/node_modules/@openai/codex/bin/codex.js']))!;
    assert.deepEqual(byPackage.args.slice(0, 3), ['--max-old-space-size=4096', '/usr/lib/node_modules/@openai/codex/bin/codex.js', '-c']);
  });

  it('looks through wrappers inside wrappers: env, then sh -c, then node', () => {
    const result = integrated(launch('env', ['A=1', 'sh', '-c', 'exec node /x/claude']))!;
    assert.deepEqual(result.args.slice(0, 3), ['A=1', 'sh', '-c']);
    assert.match(result.args[3]!, /^exec node \/x\/claude --settings '\{/);
  });

  it('leaves alone what it cannot read exactly: shell syntax, unknown options, inline code', () => {
    const untouched = [
      launch('sh', ['-c', 'claude; rm -rf x']),
      launch('sh', ['-c', 'claude "$@"', 'sh', '--resume']),
      launch('sh', ['-c', 'claude > log']),
      launch('sh', ['-c', 'cd ~ && claude']),
      launch('sh', ['-c', 'claude `id`']),
      launch('sh', ['-c', "claude 'open"]),
      launch('sh', ['-ec', 'claude']),
      launch('sh', ['script.sh']),
      launch('env', ['-S', 'claude --resume']),
      launch('env', ['FOO=1']),
      launch('node', ['-e', 'require("claude")']),
      launch('node', ['--weird', 'value', 'claude']),
      launch('node', []),
      launch('python3', ['claude']),
    ];
    for (const outer of untouched) assert.equal(integrated(outer), null, `${outer.command} ${JSON.stringify(outer.args)}`);
  });

  it('gives up after a bounded number of wrappers', () => {
    let outer = launch('claude');
    for (let i = 0; i < 8; i += 1) outer = launch('env', [outer.command, ...outer.args]);
    assert.equal(agentLaunch(outer, manifests), null);
    assert.ok(unwrapLaunch(outer));
  });
});
