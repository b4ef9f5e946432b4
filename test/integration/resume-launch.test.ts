import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Launch } from '../../src/integration/launch.ts';
import { resumeLaunch } from '../../src/integration/resume-launch.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const manifests = new ManifestSet().all().map((manifest) => manifest.spec);
const launch = (command: string, args: string[] = []): Launch => ({ command, args, env: {} });

describe('the resume form goes to the agent, inside its wrappers', () => {
  it('after the agent\'s own arguments when the pane runs it directly', () => {
    assert.deepEqual(resumeLaunch(launch('claude', ['--model', 'x']), manifests, 'claude', 's-1')?.args, ['--model', 'x', '--resume', 's-1']);
  });

  it('inside an sh -c script, not after it (where it would be $0 and $1)', () => {
    const resumed = resumeLaunch(launch('sh', ['-c', 'FOO=1 exec claude --model x']), manifests, 'claude', 's-1');
    assert.deepEqual(resumed?.args, ['-c', 'FOO=1 exec claude --model x --resume s-1']);
  });

  it('through env and node, to the script node runs', () => {
    assert.deepEqual(resumeLaunch(launch('env', ['A=1', 'codex']), manifests, 'codex', 's-2')?.args, ['A=1', 'codex', 'resume', 's-2']);
    assert.deepEqual(resumeLaunch(launch('node', ['--enable-source-maps', 'fake-claude.mjs', '-v']), manifests, 'claude', 's-3')?.args, [
      '--enable-source-maps',
      'fake-claude.mjs',
      '-v',
      '--resume',
      's-3',
    ]);
  });

  it('not at all when the script is more than plain words, or the agent has no resume form', () => {
    assert.equal(resumeLaunch(launch('bash', ['-lc', 'cd /w && claude']), manifests, 'claude', 's-1'), null);
    assert.equal(resumeLaunch(launch('sh', ['-c', 'claude "$@"', 'x']), manifests, 'claude', 's-1'), null);
    assert.equal(resumeLaunch(launch('claude'), manifests, 'no-such-agent', 's-1'), null);
  });
});
